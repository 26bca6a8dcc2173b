package syntax

// This file defines the YAML check: go.yaml.in/yaml/v3 over every document.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlLine finds the "line N: " that yaml.v3 puts in its error messages.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlAnchor finds the anchor name in yaml.v3's unknown-anchor message.
var yamlAnchor = regexp.MustCompile(`^yaml: unknown anchor '(.*)' referenced$`)

// yamlParserProblems are the problems yaml.v3's parser (as opposed to its
// scanner) reports. For these, the line in the message is 0-based (the
// scanner's is 1-based), so the check adds one. See (*parser).fail in
// yaml.v3's decode.go.
var yamlParserProblems = []string{
	"did not find expected",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
}

// checkYAML decodes every document in src into a yaml.Node and reports the
// first error, naming the document it is in (1-based, in stream order). The
// YAML parser reports lines only, so the column is always 1.
func checkYAML(src []byte) (errs []Error) {
	doc := 0
	defer func() {
		// yaml.v3 re-panics on anything but its own errors; a daemon must
		// not go down over a file's content.
		if r := recover(); r != nil {
			errs = []Error{{Line: 1, Column: 1, Msg: fmt.Sprintf("document %d: the YAML parser failed: %v", doc, r)}}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		doc++
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			line, msg := yamlErrorLine(src, err.Error())
			line = min(line, lineCount(src))
			return []Error{{Line: line, Column: 1, Msg: fmt.Sprintf("document %d: %s", doc, msg)}}
		}
	}
}

// yamlErrorLine takes the line out of a yaml.v3 error message and returns it
// (1-based, at least 1) with the rest of the message.
func yamlErrorLine(src []byte, msg string) (int, string) {
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		rest := msg[len(m[0]):]
		for _, p := range yamlParserProblems {
			if strings.HasPrefix(rest, p) {
				n++
				break
			}
		}
		return max(n, 1), rest
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := yamlAnchor.FindStringSubmatch("yaml: " + msg); m != nil {
		// No line given: point at the first use of the alias.
		if i := bytes.Index(src, []byte("*"+m[1])); i >= 0 {
			return 1 + bytes.Count(src[:i], []byte("\n")), msg
		}
	}
	// Errors without a line (the scanner's and parser's on the first line,
	// the reader's) are on line 1 or unknown.
	return 1, msg
}

// lineCount is the number of lines in src, at least 1; a final newline
// does not start another line.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return max(n, 1)
}
