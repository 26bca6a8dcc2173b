package main

// TestDocs runs the examples of README.md and docs/*.md against the real
// binary and compares what it prints with what the documents show, so
// that they cannot drift from it.
//
// Every code block of those files is an example the test checks, or is
// marked as one it does not run, with the reason. A marker is an HTML
// comment on the line before the block (it does not show when the
// document is rendered):
//
//	<!-- not run: REASON -->
//	<!-- example: KIND ARGS... -->
//
// An unmarked block right after an example's block (blank lines only
// between them) is that example's shown output or answer; one after prose
// is marked <!-- example: answer -->. The kinds (each runs on a fresh
// copy of a fixture, a directory of the repository that the document names
// or shows, so that a reader can run the example too):
//
//   - sh FIXTURE [session=NAME] [root=PATH]: the block runs in bash, in
//     the fixture's copy ("-": an empty directory; ".": the repository
//     itself, for commands that only read); $DEVBROKER is the binary, and
//     devbroker is on PATH. Its output (stdout and stderr) is the answer
//     block's; without one, each of its commands must succeed. The blocks
//     of one session run in one shell, in order. root= is the path the
//     document writes for the fixture's copy.
//   - transcript FIXTURE [root=PATH] [home=PATH] [at=~/PATH]
//     [without=TOOL,...]: a text block of "$ CMD" lines, each followed by
//     what it prints; the commands run in one shell in the fixture's copy
//     (at=: the copy is there, in a new home directory, which is the
//     shell's directory). home= is the home directory the document shows.
//     without=: on a machine without those tools (gopls is hidden; another
//     that is installed skips the example).
//   - usage: each line is a usage line of devbroker help.
//   - flags: each line is a devbroker command whose flags its --help lists.
//   - refs: the commands' packages, files, make targets and the tests,
//     benchmarks and fuzz targets their -run, -bench and -fuzz select
//     exist.
//   - plan FIXTURE [exit=N]: the block is a plan; devbroker run runs it on
//     the fixture's copy and exits N (0).
//   - file FIXTURE: the block is a file of the fixture, named on its first
//     line (// a/a.go), as it is there.
//   - mcp SESSION FIXTURE [root=PATH] [call=JSON]: the block holds MCP
//     tools/call requests (a JSON-RPC request, or {"name", "arguments"}),
//     sent in order over stdio to devbroker serve --mcp --tools full with
//     the Go SDK's client, one server per session; the answer block is the
//     last call's structured content, its JSON-RPC response (a block with
//     "jsonrpc"; a member alone, "coverage": [...], is one of the
//     structured content's), or its text (a text block), and each line of
//     text the prose after it quotes as Text: `LINE` is a line of the
//     answer's text. call= is the request (or requests) of an answer
//     block shown alone.
//   - editor SESSION FIXTURE [order=N] [root=PATH] [trust] [init]: the
//     block's ">>" messages are sent to devbroker serve --stdio (the
//     "jsonrpc" member added), and its "<<" messages are what comes back
//     (messages of a method the block does not show are left aside; "<<
//     ..." stands for any number of those it shows); the session's
//     blocks run by order=, then as the document has them. The session's
//     first block initializes, or init does (asking for the diagnostics
//     push). trust serves it with --trust (the fixture's .devbroker.toml
//     applies).
//   - nvim [root=PATH]: a Lua snippet of a Neovim configuration; a
//     headless Neovim runs it (root= is the path the snippet writes for the
//     repository), and the plugin's commands then exist.
//   - config NAME: a configuration snippet, checked by configChecks[NAME]
//     for what the text around it says it does.
//   - config-errors FIXTURE: each line is a problem devbroker reports for
//     one of the fixture's directories, each a root with a .devbroker.toml.
//
// Output is compared as docs_match_test.go says: ellipses elide, version
// numbers and column widths are normalised, the fixture's temporary path
// reads as the path the document writes, and this machine's Go
// installation and GOPATH as /usr/local/go and /root/go. The examples
// need gopls (make tools); without it, only the markers are checked.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/configs"
)

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// docBlock is one code block of a document.
type docBlock struct {
	file string // relative to the repository: README.md, docs/mcp.md
	line int    // of the opening fence (of the first line, for an indented block)
	lang string // the fence's info string
	body string // the block's text, each line ending in a newline
	// marker is the marker comment's text ("example: ...", "not run:
	// ..."), or "".
	marker string
	// adjacent says that only blank lines stand between the previous
	// block and this one.
	adjacent bool
	// after is the prose between this block and the next one.
	after string
}

func (b *docBlock) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

var (
	fenceRE  = regexp.MustCompile("^([ \t]*)(```+|~~~+)[ \t]*([^ \t`]*)")
	markerRE = regexp.MustCompile(`^<!--\s*((?:example|not run):.*?)\s*-->$`)
	listRE   = regexp.MustCompile(`^\s*([-*+]|\d+[.)])\s`)
)

// scanBlocks returns a Markdown document's code blocks: fenced, and
// indented ones (a tab or four spaces after a blank line, outside a list).
func scanBlocks(file, text string) ([]*docBlock, error) {
	lines := strings.Split(text, "\n")
	var out []*docBlock
	lastMarker, lastMarkerLine := "", -1
	sinceBlock := true // only blank lines since the previous block ended
	prevText := ""     // the last non-blank line outside blocks
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fenceRE.FindStringSubmatch(l); m != nil {
			indent, fence := m[1], m[2]
			b := &docBlock{file: file, line: i + 1, lang: m[3], adjacent: sinceBlock && len(out) > 0}
			if lastMarkerLine >= 0 {
				b.marker = lastMarker
			}
			var body strings.Builder
			closed := false
			for i++; i < len(lines); i++ {
				if strings.HasPrefix(strings.TrimSpace(lines[i]), fence) && strings.Trim(strings.TrimSpace(lines[i]), fence[:1]) == "" {
					closed = true
					break
				}
				body.WriteString(strings.TrimPrefix(lines[i], indent))
				body.WriteString("\n")
			}
			if !closed {
				return nil, fmt.Errorf("%s:%d: a code block is not closed", file, b.line)
			}
			b.body = body.String()
			out = append(out, b)
			lastMarker, lastMarkerLine, sinceBlock, prevText = "", -1, true, ""
			continue
		}
		blank := strings.TrimSpace(l) == ""
		if !blank && (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "    ")) && i > 0 && strings.TrimSpace(lines[i-1]) == "" &&
			prevText != "" && !listRE.MatchString(prevText) && !strings.HasPrefix(prevText, " ") {
			b := &docBlock{file: file, line: i + 1, lang: "", adjacent: sinceBlock && len(out) > 0}
			if lastMarkerLine >= 0 {
				b.marker = lastMarker
			}
			var body strings.Builder
			for ; i < len(lines) && (strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(lines[i], "\t") || strings.HasPrefix(lines[i], "    ")); i++ {
				body.WriteString(strings.TrimPrefix(strings.TrimPrefix(lines[i], "\t"), "    "))
				body.WriteString("\n")
			}
			i--
			b.body = strings.TrimRight(body.String(), "\n") + "\n"
			out = append(out, b)
			lastMarker, lastMarkerLine, sinceBlock, prevText = "", -1, true, ""
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].after += l + "\n"
		}
		if blank {
			continue
		}
		if m := markerRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			lastMarker, lastMarkerLine, sinceBlock = m[1], i, false
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "<!--") && strings.Contains(l, "example") {
			return nil, fmt.Errorf("%s:%d: a marker that does not parse: want <!-- example: KIND ARGS --> or <!-- not run: REASON -->", file, i+1)
		}
		lastMarker, lastMarkerLine, sinceBlock, prevText = "", -1, false, l
	}
	return out, nil
}

// docExample is one example: its block, its marker's kind and arguments,
// and the block that shows its answer.
type docExample struct {
	block   *docBlock
	kind    string
	pos     []string          // positional arguments
	args    map[string]string // key=value arguments
	answers []*docBlock
}

func (e *docExample) where() string { return e.block.where() }

// arg is the i-th positional argument, or "".
func (e *docExample) arg(i int) string {
	if i < len(e.pos) {
		return e.pos[i]
	}
	return ""
}

// answer is the example's answer block, or nil.
func (e *docExample) answer() *docBlock {
	if len(e.answers) == 0 {
		return nil
	}
	return e.answers[0]
}

// exampleKinds are the kinds and whether an example of the kind may have
// an answer block.
var exampleKinds = map[string]bool{
	"sh": true, "transcript": false, "usage": false, "flags": false, "refs": false,
	"plan": false, "file": false, "mcp": true, "editor": false, "nvim": false,
	"config": false, "config-errors": false,
}

// parseExample parses a marker's "example: KIND ARGS" text.
func parseExample(b *docBlock, text string) (*docExample, error) {
	rest := strings.TrimSpace(strings.TrimPrefix(text, "example:"))
	e := &docExample{block: b, args: map[string]string{}}
	if call, ok := strings.CutPrefix(rest[strings.Index(rest+" call=", " call="):], " call="); ok {
		e.args["call"] = call
		rest = rest[:strings.Index(rest, " call=")]
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return nil, fmt.Errorf("%s: the marker names no kind", b.where())
	}
	e.kind = f[0]
	if _, ok := exampleKinds[e.kind]; !ok && e.kind != "answer" {
		return nil, fmt.Errorf("%s: unknown example kind %q", b.where(), e.kind)
	}
	for _, a := range f[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			e.args[k] = v
		} else if a == "trust" || a == "init" {
			e.args[a] = "true"
		} else {
			e.pos = append(e.pos, a)
		}
	}
	return e, nil
}

// docFiles are the documents whose examples are checked.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		files = append(files, "docs/"+filepath.Base(m))
	}
	return files
}

// collectExamples scans every document and pairs blocks into examples.
// Problems (an unmarked block, a marker that does not parse) are
// returned all together.
func collectExamples(t *testing.T) (examples []*docExample, notRun map[string]int, problems []string) {
	t.Helper()
	var docs [][2]string
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, [2]string{file, string(data)})
	}
	return collectFrom(docs)
}

// collectFrom pairs the blocks of documents (name and text) into examples.
func collectFrom(docs [][2]string) (examples []*docExample, notRun map[string]int, problems []string) {
	notRun = map[string]int{}
	for _, doc := range docs {
		file := doc[0]
		blocks, err := scanBlocks(file, doc[1])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		var last *docExample
		for _, b := range blocks {
			switch {
			case strings.HasPrefix(b.marker, "not run:"):
				if strings.TrimSpace(strings.TrimPrefix(b.marker, "not run:")) == "" {
					problems = append(problems, b.where()+": a not run marker must say why")
				}
				notRun[file]++
				last = nil
			case strings.HasPrefix(b.marker, "example:"):
				e, err := parseExample(b, b.marker)
				if err != nil {
					problems = append(problems, err.Error())
					last = nil
					continue
				}
				if e.kind == "answer" {
					if last == nil || !exampleKinds[last.kind] {
						problems = append(problems, b.where()+": an answer block with no example before it that has answers")
						continue
					}
					last.answers = append(last.answers, b)
					continue
				}
				examples = append(examples, e)
				last = e
			case b.adjacent && last != nil && exampleKinds[last.kind] && len(last.answers) == 0:
				last.answers = append(last.answers, b)
			default:
				problems = append(problems, fmt.Sprintf("%s: a ```%s block that is neither checked nor marked as not run: put <!-- example: KIND ARGS --> on the line before it (see cmd/devbroker/docs_test.go), or <!-- not run: REASON -->", b.where(), b.lang))
				last = nil
			}
		}
	}
	return examples, notRun, problems
}

func TestDocs(t *testing.T) {
	examples, notRun, problems := collectExamples(t)
	for _, p := range problems {
		t.Error(p)
	}
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools): the documents' examples need it")
	}
	checked := map[string]int{}
	// Sessions run together: their examples in document order (an editor
	// session by order=).
	type session struct {
		kind, name string
		examples   []*docExample
	}
	var order []*session
	sessions := map[string]*session{}
	for _, e := range examples {
		key := ""
		switch e.kind {
		case "mcp", "editor":
			key = e.block.file + " " + e.kind + " " + e.arg(0)
		case "sh":
			if s := e.args["session"]; s != "" {
				key = e.block.file + " sh " + s
			}
		}
		if key == "" {
			key = e.where()
		}
		s := sessions[key]
		if s == nil {
			s = &session{kind: e.kind, name: key}
			sessions[key] = s
			order = append(order, s)
		}
		s.examples = append(s.examples, e)
	}
	env := newDocEnv(t)
	for _, s := range order {
		t.Run(strings.NewReplacer(" ", "_", "/", "_").Replace(s.name), func(t *testing.T) {
			for _, e := range s.examples {
				checked[e.block.file]++
			}
			switch s.kind {
			case "sh":
				env.runShell(t, s.examples)
			case "transcript":
				env.runTranscript(t, s.examples[0])
			case "usage":
				env.checkUsage(t, s.examples[0])
			case "flags":
				env.checkFlags(t, s.examples[0])
			case "refs":
				checkRefs(t, s.examples[0])
			case "plan":
				env.runPlan(t, s.examples[0])
			case "file":
				checkFile(t, s.examples[0])
			case "mcp":
				env.runMCP(t, s.examples)
			case "editor":
				env.runEditor(t, s.examples)
			case "config":
				env.checkConfig(t, s.examples[0])
			case "config-errors":
				env.checkConfigErrors(t, s.examples[0])
			case "nvim":
				env.runNvim(t, s.examples[0])
			}
		})
	}
	for _, f := range docFiles(t) {
		t.Logf("%s: %d examples checked, %d blocks not run", f, checked[f], notRun[f])
	}
}

// TestDocsMarkers holds the scanner to what TestDocs needs: every block of
// the documents is found, and one without a marker is reported with its
// file and line.
func TestDocsMarkers(t *testing.T) {
	doc := "# T\n\nProse.\n\n```sh\necho hi\n```\n\n<!-- not run: a reason -->\n```sh\nrm -rf /\n```\n\n" +
		"<!-- example: sh - -->\n```sh\necho one\n```\n\n```text\none\n```\n\nA paragraph:\n\n\tindented\n\n- a list\n\n    continued\n"
	blocks, err := scanBlocks("x.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%d %q %q %v", b.line, b.marker, b.body, b.adjacent))
	}
	want := []string{
		`5 "" "echo hi\n" false`,
		`10 "not run: a reason" "rm -rf /\n" false`,
		`15 "example: sh -" "echo one\n" false`,
		`19 "" "one\n" true`,
		`25 "" "indented\n" false`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Pairing: an example and its answers, and every block that is
	// neither checked nor marked, or marked wrong, reported with its
	// file and line.
	examples, notRun, problems := collectFrom([][2]string{{"x.md", doc}, {"y.md", "" +
		"<!-- example: mcp s examples/lang -->\n```json\n{}\n```\n\nText:\n\n<!-- example: answer -->\n```text\nok\n```\n\n" +
		"<!-- not run:   -->\n```sh\nx\n```\n\n<!-- example: answer -->\n```text\nalone\n```\n\n<!-- example: nope -->\n```sh\ny\n```\n"}})
	if len(examples) != 2 || examples[0].kind != "sh" || len(examples[0].answers) != 1 || examples[0].answers[0].line != 19 ||
		examples[1].kind != "mcp" || examples[1].arg(0) != "s" || examples[1].arg(1) != "examples/lang" || len(examples[1].answers) != 1 {
		t.Errorf("examples: %+v", examples)
	}
	if notRun["x.md"] != 1 || notRun["y.md"] != 1 {
		t.Errorf("not run: %v", notRun)
	}
	wantProblems := []string{
		"x.md:5: a ```sh block that is neither checked nor marked",
		"x.md:25: a ``` block that is neither checked nor marked",
		"y.md:14: a not run marker must say why",
		"y.md:19: an answer block with no example before it",
		"y.md:24: unknown example kind \"nope\"",
	}
	if len(problems) != len(wantProblems) {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
	for i, w := range wantProblems {
		if i >= len(problems) || !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d: want %q…, got:\n%s", i, w, strings.Join(problems, "\n"))
		}
	}
}

// TestDocsMatch holds the comparison to its rules: ellipses elide, and
// nothing else is let through.
func TestDocsMatch(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb\n", "a\nb", true},
		{"a\n…\nd", "a\nb\nc\nd", true},
		{"a\n...\nd", "a\nd", true},
		{"a\nd", "a\nb\nd", false},
		{"go version go1.26.8 linux/amd64  /usr/local/go/bin/go", "go version go1.27.1 linux/amd64 /usr/local/go/bin/go", true},
		{"sha256:a7a6…", "sha256:a7a6ecb0137c", true},
		{"sha256:3f1c…", "sha256:a7a6", false},
		{"exit 1", "exit 2", false},
	} {
		if got := matchText(tc.want, tc.got); got != tc.ok {
			t.Errorf("matchText(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
		}
	}
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{`{"a": 1, "b": [1, 2]}`, `{"b": [1, 2], "a": 1}`, true},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{`{"a": 1, ...}`, `{"a": 1, "b": 2}`, true},
		{`{"a": …}`, `{"a": {"x": [1]}}`, true},
		{`{"a": [1, ...]}`, `{"a": [1, 2, 3]}`, true},
		{`{"a": [1, ...]}`, `{"a": [2, 1]}`, false},
		{`{"a": [..., 3]}`, `{"a": [1, 2, 3]}`, true},
		{`{"a": [1, 2]}`, `{"a": [1, 2, 3]}`, false},
		{`{"m": "check found 1 error: …"}`, `{"m": "check found 1 error: main.go:4:10: x"}`, true},
		{`{"m": "check found 2 errors: …"}`, `{"m": "check found 1 error: main.go:4:10: x"}`, false},
		{`{"v": null}`, `{"v": 4}`, false},
		{`{"v": 4}`, `{"v": 4.0}`, true},
		{`{"ok": true, "reads": {...}, ...}`, `{"ok": true, "reads": {"x": "y"}}`, true},
	} {
		p, err := parsePattern(tc.want)
		if err != nil {
			t.Fatalf("%s: %v", tc.want, err)
		}
		var got any
		if err := json.Unmarshal([]byte(tc.got), &got); err != nil {
			t.Fatal(err)
		}
		if err := matchJSON(p, got); (err == nil) != tc.ok {
			t.Errorf("matchJSON(%s, %s) = %v, want ok %v", tc.want, tc.got, err, tc.ok)
		}
	}
	for _, bad := range []string{`{"a": }`, `{"a" 1}`, `[1 2]`, `{"a": "x`, `{"a": 1, "a": 2}`, `{"a": 1} x`} {
		if _, err := parsePattern(bad); err == nil {
			t.Errorf("parsePattern(%q) parsed", bad)
		}
	}
}

// FuzzParsePattern: the pattern parser never panics, and a pattern it
// parses prints as one it parses to the same.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{`{"ok": true, "reads": {...}, "a": [1, …, {"b": null}], ...}`, `"x…y"`, `[...]`, `{"a": -1.5e3}`, `{`, `"\u00e9"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePattern(s)
		if err != nil {
			return
		}
		again, err := parsePattern(p.String())
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, p.String(), err)
		}
		if again.String() != p.String() {
			t.Fatalf("%q: %q, then %q", s, p.String(), again.String())
		}
	})
}

// FuzzScanBlocks: the scanner never panics, and every block it finds
// starts at a line of the document.
func FuzzScanBlocks(f *testing.F) {
	f.Add("# T\n\n<!-- example: sh - -->\n```sh\necho\n```\n\n```text\nx\n```\n\nP:\n\n\tcode\n")
	f.Add("```\nnot closed\n")
	f.Fuzz(func(t *testing.T, s string) {
		blocks, err := scanBlocks("f.md", s)
		if err != nil {
			return
		}
		n := strings.Count(s, "\n") + 1
		for _, b := range blocks {
			if b.line < 1 || b.line > n {
				t.Fatalf("a block at line %d of %d", b.line, n)
			}
		}
	})
}

// docEnv is what every example runs with: the binary, and an environment
// of its own (home, trust list, temporary directory) whose user
// configuration is the test layer (configs/configtest).
type docEnv struct {
	bin string
	env []string
	// machine maps this machine's Go installation and GOPATH to the ones
	// the documents show (/usr/local/go, /root/go).
	machine *strings.Replacer
}

func newDocEnv(t *testing.T) *docEnv {
	bin := devbrokerBin(t)
	state := t.TempDir()
	env := append(os.Environ(),
		"PATH="+filepath.Dir(bin)+string(filepath.ListSeparator)+os.Getenv("PATH"),
		"DEVBROKER="+bin,
		"XDG_STATE_HOME="+state,
		"TMPDIR="+t.TempDir(),
	)
	var pairs []string
	out, err := exec.Command("go", "env", "GOROOT", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	if f := strings.Fields(string(out)); len(f) == 2 {
		gopath := filepath.SplitList(f[1])[0]
		pairs = append(pairs, f[0], "/usr/local/go", gopath, "/root/go")
	}
	return &docEnv{bin: bin, env: env, machine: strings.NewReplacer(pairs...)}
}

// with is the environment with more variables set.
func (d *docEnv) with(vars ...string) []string {
	return append(append([]string(nil), d.env...), vars...)
}

// fixture copies the repository directory dir to a new temporary
// directory and returns the copy's real path ("-": an empty one; ".": the
// repository itself, not copied).
func fixture(t *testing.T, dir string) string {
	t.Helper()
	switch dir {
	case "":
		t.Fatal("the example names no fixture")
	case ".":
		abs, err := filepath.Abs(repoRoot)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if dir == "-" {
		return dst
	}
	copyTree(t, filepath.Join(repoRoot, dir), dst)
	return dst
}

// copyTree copies a directory tree, file modes kept.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copying the fixture %s: %v", src, err)
	}
}

// replacer maps the fixture's real path to the one the document writes,
// and back.
type replacer struct{ real, shown string }

func (r replacer) toReal(s string) string {
	if r.shown == "" {
		return s
	}
	return strings.ReplaceAll(s, r.shown, r.real)
}

func (r replacer) toShown(s string) string {
	if r.shown == "" {
		return s
	}
	return strings.ReplaceAll(s, r.real, r.shown)
}

// shownJSON replaces the real path in every string of a decoded JSON value.
func (r replacer) shownJSON(v any) any {
	switch v := v.(type) {
	case string:
		return r.toShown(v)
	case []any:
		for i := range v {
			v[i] = r.shownJSON(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = r.shownJSON(v[k])
		}
	}
	return v
}

// sentinel ends each piece of a shell's output, with the piece's index.
const sentinel = "@@docs-test-end"

var sentinelRE = regexp.MustCompile(`(?m)\n?` + sentinel + ` (\d+)\n`)

// shellPieces runs pieces of shell script in one bash, in dir, and returns
// each piece's output (stdout and stderr together). $? carries over from
// one piece to the next.
func (d *docEnv) shellPieces(t *testing.T, dir string, env []string, pieces []string) []string {
	t.Helper()
	var script strings.Builder
	script.WriteString("exec 2>&1\n")
	for i, p := range pieces {
		script.WriteString(p)
		if !strings.HasSuffix(p, "\n") {
			script.WriteString("\n")
		}
		fmt.Fprintf(&script, "__docs_status=$?; printf '\\n%s %d\\n'; (exit $__docs_status)\n", sentinel, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc")
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(script.String())
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the shell did not end: %v\n%s", err, out)
	}
	got := make([]string, len(pieces))
	rest := string(out)
	for i := range pieces {
		loc := sentinelRE.FindStringSubmatchIndex(rest)
		if loc == nil || rest[loc[2]:loc[3]] != strconv.Itoa(i) {
			t.Fatalf("the shell stopped before the end of piece %d (%v):\n%s", i+1, err, out)
		}
		got[i] = rest[:loc[0]]
		rest = rest[loc[1]:]
	}
	return got
}

// runShell runs a session of sh examples (see the file comment).
func (d *docEnv) runShell(t *testing.T, exs []*docExample) {
	dir := fixture(t, exs[0].arg(0))
	r := replacer{real: dir, shown: exs[0].args["root"]}
	var pieces []string
	for _, e := range exs {
		body := r.toReal(e.block.body)
		if e.answer() == nil {
			// Each command must succeed: one that fails says so, and
			// the shell goes on.
			body = "trap 'echo \"@@docs-test: exit $? from: $BASH_COMMAND\"' ERR\n" + body + "\ntrap - ERR\n"
		}
		pieces = append(pieces, body)
	}
	outs := d.shellPieces(t, dir, d.env, pieces)
	for i, e := range exs {
		got := d.machine.Replace(r.toShown(outs[i]))
		if a := e.answer(); a != nil {
			if !matchText(a.body, got) {
				t.Errorf("%s: the output differs from %s's:\n%s", e.where(), a.where(), lineDiff(a.body, got))
			}
		} else if strings.Contains(got, "@@docs-test: exit ") {
			var failed []string
			for _, l := range splitLines(got) {
				if f, ok := strings.CutPrefix(l, "@@docs-test: "); ok {
					failed = append(failed, f)
				}
			}
			t.Errorf("%s: a command failed (the block shows no output, so each of its commands must succeed): %s\nthe output:\n%s", e.where(), strings.Join(failed, "; "), got)
		}
	}
}

// runTranscript runs a transcript's commands and compares each one's output.
func (d *docEnv) runTranscript(t *testing.T, e *docExample) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env := d.with("HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"))
	for _, tool := range strings.Split(e.args["without"], ",") {
		switch _, err := exec.LookPath(tool); {
		case tool == "":
		case tool == "gopls":
			env = append(env, withoutGopls(t)...)
		case err == nil:
			t.Skipf("%s is installed, and the example shows a machine without it", tool)
		}
	}
	var dir string
	if at, ok := strings.CutPrefix(e.args["at"], "~/"); ok {
		dir = filepath.Join(home, filepath.FromSlash(at))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		copyTree(t, filepath.Join(repoRoot, e.arg(0)), dir)
	} else {
		dir = fixture(t, e.arg(0))
	}
	r := replacer{real: dir, shown: e.args["root"]}
	var cmds, wants []string
	var lines []int
	for i, l := range splitLines(e.block.body) {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			cmds = append(cmds, c)
			wants = append(wants, "")
			lines = append(lines, e.block.line+1+i)
			continue
		}
		if len(cmds) == 0 {
			t.Fatalf("%s: a transcript starts with a $ command line", e.where())
		}
		wants[len(wants)-1] += l + "\n"
	}
	var pieces []string
	for _, c := range cmds {
		pieces = append(pieces, r.toReal(c))
	}
	outs := d.shellPieces(t, dir, env, pieces)
	for i := range cmds {
		got := r.toShown(outs[i])
		if h := e.args["home"]; h != "" {
			got = strings.ReplaceAll(got, home, h)
		}
		got = d.machine.Replace(got)
		if !matchText(wants[i], got) {
			t.Errorf("%s:%d: $ %s: the output differs:\n%s", e.block.file, lines[i], cmds[i], lineDiff(wants[i], got))
		}
	}
}

// helpUsage is the usage lines devbroker help prints, blanks normalised.
func (d *docEnv) helpUsage(t *testing.T) map[string]bool {
	t.Helper()
	cmd := exec.Command(d.bin, "help")
	cmd.Env = d.env
	out, _ := cmd.CombinedOutput()
	usage := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "devbroker ") {
			continue
		}
		if i := strings.Index(l, "   "); i >= 0 {
			l = l[:i]
		}
		usage[normText(l)] = true
	}
	if len(usage) == 0 {
		t.Fatalf("devbroker help printed no usage line:\n%s", out)
	}
	return usage
}

// commandLines are a block's lines with their comments cut.
func commandLines(body string) []string {
	var out []string
	for _, l := range splitLines(body) {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func (d *docEnv) checkUsage(t *testing.T, e *docExample) {
	usage := d.helpUsage(t)
	for i, l := range commandLines(e.block.body) {
		if !usage[normText(l)] {
			var have []string
			for u := range usage {
				have = append(have, u)
			}
			sort.Strings(have)
			t.Errorf("%s (line %d of the block): %q is not a usage line of devbroker help, which has:\n%s", e.where(), i+1, l, strings.Join(have, "\n"))
		}
	}
}

var flagRE = regexp.MustCompile(`(?:^|[\s\[|])--([a-z][a-z-]*)`)

func (d *docEnv) checkFlags(t *testing.T, e *docExample) {
	for _, l := range commandLines(e.block.body) {
		f := strings.Fields(l)
		for len(f) > 0 && strings.Contains(f[0], "=") {
			f = f[1:]
		}
		if len(f) < 2 || f[0] != "devbroker" {
			t.Errorf("%s: %q is not a devbroker command", e.where(), l)
			continue
		}
		cmd := exec.Command(d.bin, f[1], "--help")
		cmd.Env = d.env
		help, _ := cmd.CombinedOutput()
		for _, m := range flagRE.FindAllStringSubmatch(l, -1) {
			if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(m[1]) + `\b`).Match(help) {
				t.Errorf("%s: devbroker %s --help lists no --%s (%q)", e.where(), f[1], m[1], l)
			}
		}
	}
}

var (
	makeRE    = regexp.MustCompile(`(?:^|&&|;)\s*make((?:\s+[a-z][\w-]*)+)`)
	pathRE    = regexp.MustCompile(`(?:^|\s)(\./[\w./-]*|\.ci/[\w./-]+)`)
	testSelRE = regexp.MustCompile(`-(run|bench|fuzz)[ =]('[^']*'|"[^"]*"|\S+)`)
)

// checkRefs checks that what a block's commands name exists: make
// targets, package directories and files, and the tests their -run,
// -bench and -fuzz select.
func checkRefs(t *testing.T, e *docExample) {
	mk, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range commandLines(e.block.body) {
		for _, m := range makeRE.FindAllStringSubmatch(l, -1) {
			for _, target := range strings.Fields(m[1]) {
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `:`).Match(mk) {
					t.Errorf("%s: the Makefile has no target %q (%s)", e.where(), target, l)
				}
			}
		}
		var pkgs []string
		for _, m := range pathRE.FindAllStringSubmatch(l, -1) {
			p := strings.TrimSuffix(strings.TrimSuffix(m[1], "/..."), "/")
			if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
				t.Errorf("%s: %s names %s, which the repository does not have", e.where(), l, m[1])
				continue
			}
			if strings.HasPrefix(m[1], "./") {
				pkgs = append(pkgs, p)
			}
		}
		for _, m := range testSelRE.FindAllStringSubmatch(l, -1) {
			sel := strings.Trim(m[2], `'"`)
			if sel == "^$" || sel == "." || sel == "x" {
				continue
			}
			prefix := map[string]string{"run": "(Test|Fuzz|Example)", "bench": "Benchmark", "fuzz": "Fuzz"}[m[1]]
			for _, alt := range strings.Split(sel, "|") {
				re, err := regexp.Compile(alt)
				if err != nil {
					t.Errorf("%s: -%s %s does not compile: %v", e.where(), m[1], sel, err)
					continue
				}
				if !testFuncExists(t, pkgs, prefix, re) {
					t.Errorf("%s: -%s %s: no %s function in %v matches %q", e.where(), m[1], sel, prefix, pkgs, alt)
				}
			}
		}
	}
}

var testFuncRE = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Example|Benchmark)\w*)\(`)

// testFuncExists reports whether a test function of the packages (and
// their subpackages, for a pattern ending in /...) has the prefix and
// matches re.
func testFuncExists(t *testing.T, pkgs []string, prefix string, re *regexp.Regexp) bool {
	want := regexp.MustCompile("^" + prefix)
	for _, p := range pkgs {
		found := false
		filepath.WalkDir(filepath.Join(repoRoot, p), func(path string, d fs.DirEntry, err error) error {
			if err != nil || found {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if !strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range testFuncRE.FindAllStringSubmatch(string(b), -1) {
				if want.MatchString(m[1]) && re.MatchString(m[1]) {
					found = true
				}
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}

// runPlan runs a plan block with devbroker run on the fixture's copy.
func (d *docEnv) runPlan(t *testing.T, e *docExample) {
	dir := fixture(t, e.arg(0))
	want := 0
	if s := e.args["exit"]; s != "" {
		want, _ = strconv.Atoi(s)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(e.block.body), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(d.bin, "run", "--root", dir, plan)
	cmd.Env = d.env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Errorf("%s: devbroker run of the plan exited %d, want %d:\n%s", e.where(), code, want, out)
	}
}

// checkFile compares a block with the fixture file its first line names.
func checkFile(t *testing.T, e *docExample) {
	first, rest, _ := strings.Cut(e.block.body, "\n")
	name, ok := strings.CutPrefix(strings.TrimSpace(first), "// ")
	if !ok {
		t.Fatalf("%s: a file block starts with // PATH", e.where())
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, e.arg(0), name))
	if err != nil {
		t.Fatalf("%s: %v", e.where(), err)
	}
	if string(b) != rest {
		t.Errorf("%s: the document's %s differs from %s's:\n%s", e.where(), name, e.arg(0), lineDiff(string(b), rest))
	}
}

// mcpCall is one request of an MCP block.
type mcpCall struct {
	name string
	args map[string]any
}

// parseMCPCalls reads a block's requests: JSON-RPC tools/call requests or
// {"name", "arguments"} objects.
func parseMCPCalls(body string) ([]mcpCall, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	var out []mcpCall
	for {
		var m map[string]any
		if err := dec.Decode(&m); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		if params, ok := m["params"].(map[string]any); ok {
			if m["method"] != "tools/call" {
				return nil, fmt.Errorf("a request of method %v, not tools/call", m["method"])
			}
			m = params
		}
		name, _ := m["name"].(string)
		args, _ := m["arguments"].(map[string]any)
		if name == "" {
			return nil, fmt.Errorf("a request with no tool name")
		}
		out = append(out, mcpCall{name, args})
	}
}

// runMCP runs an MCP session's examples over one server.
func (d *docEnv) runMCP(t *testing.T, exs []*docExample) {
	dir := fixture(t, exs[0].arg(1))
	r := replacer{real: dir, shown: exs[0].args["root"]}
	cmd := exec.Command(d.bin, "serve", "--mcp", "--root", dir, "--tools", "full")
	cmd.Env = d.env
	logs := &syncBuffer{}
	cmd.Stderr = logs
	c := sdk.NewClient(&sdk.Implementation{Name: "docs_test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, logs)
	}
	defer func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	}()
	for _, e := range exs {
		body := e.block.body
		if call := e.args["call"]; call != "" {
			body = call // the block is the answer alone
		}
		calls, err := parseMCPCalls(r.toReal(body))
		if err != nil {
			t.Fatalf("%s: %v", e.where(), err)
		}
		answers := e.answers
		if e.args["call"] != "" {
			answers = []*docBlock{e.block}
		}
		for i, call := range calls {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: call.name, Arguments: call.args})
			if err != nil {
				t.Fatalf("%s: %s: protocol error: %v", e.where(), call.name, err)
			}
			if i < len(calls)-1 || len(answers) == 0 {
				if res.IsError {
					t.Errorf("%s: %s failed, and the document shows no error:\n%s", e.where(), call.name, resultText(res))
				}
				continue
			}
			for _, a := range answers {
				compareMCP(t, r, a, res)
			}
			checkTextSpans(t, r, answers[len(answers)-1], res)
		}
	}
}

// compareMCP compares a tool's result with an answer block.
func compareMCP(t *testing.T, r replacer, a *docBlock, res *sdk.CallToolResult) {
	t.Helper()
	if a.lang == "text" {
		got := r.toShown(resultText(res))
		if !matchText(a.body, got) {
			t.Errorf("%s: the tool's text differs:\n%s", a.where(), lineDiff(a.body, got))
		}
		return
	}
	p, err := parsePattern(a.body)
	if err != nil && strings.HasPrefix(strings.TrimSpace(a.body), `"`) {
		// A member of the answer, shown alone.
		p, err = parsePattern("{" + a.body + ", …}")
	}
	if err != nil {
		t.Fatalf("%s: %v", a.where(), err)
	}
	var got any
	if p.get("jsonrpc") != nil {
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var result any
		if err := json.Unmarshal(b, &result); err != nil {
			t.Fatal(err)
		}
		id := any(nil)
		if pid := p.get("id"); pid != nil && pid.kind == kScalar {
			json.Unmarshal([]byte(pid.str), &id)
		}
		got = map[string]any{"jsonrpc": "2.0", "id": id, "result": result}
	} else {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
	}
	got = r.shownJSON(got)
	if err := matchJSON(p, got); err != nil {
		t.Errorf("%s: %v\nthe whole answer: %s", a.where(), err, short(got))
	}
}

// textSpanRE finds the text content a document quotes after an answer:
// "Text: `LINE`".
var textSpanRE = regexp.MustCompile("(?:^|\\s)Text: `([^`]+)`")

// checkTextSpans checks the lines of text the prose after an answer block
// quotes ("Text: `...`"): each is a line of the tool's text content.
func checkTextSpans(t *testing.T, r replacer, a *docBlock, res *sdk.CallToolResult) {
	t.Helper()
	text := splitLines(r.toShown(resultText(res)))
	for _, m := range textSpanRE.FindAllStringSubmatch(a.after, -1) {
		found := false
		for _, l := range text {
			if linePattern(m[1]).MatchString(normText(l)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the text after the answer quotes %q, which is no line of the tool's text:\n%s", a.where(), m[1], strings.Join(text, "\n"))
		}
	}
}

// editorConn is a connection to devbroker serve --stdio.
type editorConn struct {
	in  io.WriteCloser
	out *bufio.Reader
}

func (c *editorConn) send(b []byte) error {
	_, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

// read returns the next message.
func (c *editorConn) read() (map[string]any, error) {
	n := -1
	for {
		l, err := c.out.ReadString('\n')
		if err != nil {
			return nil, err
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
		if strings.TrimSpace(l) == "" && n >= 0 {
			break
		}
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c.out, b); err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("a message that is not JSON: %v: %s", err, b)
	}
	return m, nil
}

// exchange is an editor block's messages: what is sent (">>") and what is
// shown coming back ("<<").
type exchange struct {
	sent  []string // raw text of each message
	shown []*jpat  // patterns of what comes back; nil for "<< ..."
	lines []int    // the block line of each shown message
}

func parseExchange(body string) (exchange, error) {
	var x exchange
	var cur *strings.Builder
	dir := ""
	flush := func() error {
		if cur == nil {
			return nil
		}
		s := strings.TrimSpace(cur.String())
		if dir == ">>" {
			x.sent = append(x.sent, s)
		} else if isEllipsis(s) {
			x.shown = append(x.shown, nil)
		} else {
			p, err := parsePattern(s)
			if err != nil {
				return err
			}
			x.shown = append(x.shown, p)
		}
		cur = nil
		return nil
	}
	for i, l := range splitLines(body) {
		if d, rest, ok := strings.Cut(l, " "); ok && (d == ">>" || d == "<<") {
			if err := flush(); err != nil {
				return x, err
			}
			dir, cur = d, &strings.Builder{}
			cur.WriteString(rest + "\n")
			if d == "<<" {
				x.lines = append(x.lines, i+1)
			}
			continue
		}
		if cur == nil {
			return x, fmt.Errorf("line %d: a message starts with >> or <<", i+1)
		}
		cur.WriteString(l + "\n")
	}
	return x, flush()
}

// runEditor runs an editor session's examples over one connection.
func (d *docEnv) runEditor(t *testing.T, exs []*docExample) {
	sort.SliceStable(exs, func(i, j int) bool {
		oi, _ := strconv.Atoi(exs[i].args["order"])
		oj, _ := strconv.Atoi(exs[j].args["order"])
		return oi < oj
	})
	dir := fixture(t, exs[0].arg(1))
	r := replacer{real: dir, shown: exs[0].args["root"]}
	args := []string{"serve", "--stdio", "--root", dir}
	if exs[0].args["trust"] != "" {
		args = append(args, "--trust")
	}
	cmd := exec.Command(d.bin, args...)
	cmd.Env = d.env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	defer func() {
		stdin.Close()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("editor endpoint logs:\n%s", logs)
		}
	}()
	go func() { cmd.Wait(); close(done) }()
	// A hung endpoint fails the test instead of hanging it.
	timer := time.AfterFunc(10*time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	c := &editorConn{in: stdin, out: bufio.NewReader(stdout)}
	barrier := 900000
	initialized := false
	if exs[0].args["init"] != "" {
		// The session starts as every session does (docs/editor-protocol.md's
		// initialize), before the examples.
		c.send([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":1,"capabilities":{},"initializationOptions":{"publishDiagnostics":true}}}`))
		for {
			m, err := c.read()
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if m["id"] == float64(0) {
				break
			}
		}
		c.send([]byte(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
		initialized = true
	}
	for _, e := range exs {
		x, err := parseExchange(e.block.body)
		if err != nil {
			t.Fatalf("%s: %v", e.where(), err)
		}
		waiting := map[string]bool{}
		for _, s := range x.sent {
			s = r.toReal(s)
			if strings.HasPrefix(s, "Content-Length:") {
				// A malformed frame, sent as the document writes it: it
				// is answered with a null id.
				if _, err := stdin.Write([]byte(strings.ReplaceAll(s, `\r\n`, "\r\n"))); err != nil {
					t.Fatal(err)
				}
				waiting[fmt.Sprint(nil)] = true
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				t.Fatalf("%s: a message sent that is not JSON: %v\n%s", e.where(), err, s)
			}
			m["jsonrpc"] = "2.0"
			if m["method"] == "initialize" {
				initialized = true
			}
			if id, ok := m["id"]; ok && m["method"] != "exit" {
				waiting[fmt.Sprint(id)] = true
			}
			b, _ := json.Marshal(m)
			if err := c.send(b); err != nil {
				t.Fatal(err)
			}
		}
		if !initialized {
			t.Fatalf("%s: the session's first block must initialize", e.where())
		}
		// Everything the block's messages bring about comes before the
		// answer to a request sent after them (requests are handled in
		// order), unless the block ended the connection.
		ended := false
		for _, s := range x.sent {
			if strings.Contains(s, `"method": "exit"`) || strings.Contains(s, `"method":"exit"`) {
				ended = true
			}
		}
		barrier++
		if !ended {
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": barrier, "method": "devbroker/pending", "params": map[string]any{}})
			c.send(b)
		}
		// Requests are handled in order, but an answer may be written
		// after the next request's: read until every request of the
		// block and the barrier are answered.
		var got []map[string]any
		for barred := ended; !barred || len(waiting) > 0; {
			m, err := c.read()
			if err != nil {
				if ended && err == io.EOF {
					break
				}
				t.Fatalf("%s: reading the answers: %v", e.where(), err)
			}
			if id, ok := m["id"]; ok {
				if f, ok := id.(float64); ok && int(f) == barrier {
					barred = true
					continue
				}
				delete(waiting, fmt.Sprint(id))
			}
			delete(m, "jsonrpc")
			got = append(got, r.shownJSON(m).(map[string]any))
		}
		compareExchange(t, e, x, got)
	}
}

// compareExchange matches what came back with what the block shows:
// answers by their id; notifications of each method the block shows, in
// order, "<< ..." allowing others between.
func compareExchange(t *testing.T, e *docExample, x exchange, got []map[string]any) {
	t.Helper()
	methods := map[string]bool{}
	for _, p := range x.shown {
		if p != nil && p.get("method") != nil {
			methods[p.get("method").str] = true
		}
	}
	var notes []any
	answers := map[string]map[string]any{}
	for _, m := range got {
		if id, ok := m["id"]; ok {
			answers[fmt.Sprint(id)] = m
		} else if method, _ := m["method"].(string); methods[method] {
			notes = append(notes, m)
		}
	}
	var notePats []*jpat
	for i, p := range x.shown {
		if p == nil {
			notePats = append(notePats, &jpat{kind: kGap})
			continue
		}
		if id := p.get("id"); id != nil {
			key := id.str
			if id.kind == kScalar && id.str == "null" {
				key = "<nil>"
			}
			a, ok := answers[key]
			if !ok {
				t.Errorf("%s (line %d of the block): no answer with id %s came back; got %s", e.where(), x.lines[i], id.str, short(got))
				continue
			}
			if err := matchJSON(p, a); err != nil {
				t.Errorf("%s (line %d of the block): %v\nthe whole answer: %s", e.where(), x.lines[i], err, short(a))
			}
			continue
		}
		notePats = append(notePats, p)
	}
	if len(notePats) > 0 {
		all := &jpat{kind: kArray, elems: notePats}
		if err := matchJSON(all, notes); err != nil {
			t.Errorf("%s: the notifications differ: %v\nthey were: %s", e.where(), err, short(notes))
		}
	}
}

// runNvim runs a Neovim configuration snippet in a headless Neovim.
func (d *docEnv) runNvim(t *testing.T, e *docExample) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (Debian: apt-get install neovim; make test installs it through .ci/install-tools)")
	}
	repo, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	r := replacer{real: repo, shown: e.args["root"]}
	init := filepath.Join(t.TempDir(), "init.lua")
	check := r.toReal(e.block.body) + `
if vim.fn.exists(':DevbrokerPlan') ~= 2 then
  io.stderr:write('docs test: no :DevbrokerPlan command after the snippet\n')
  vim.cmd('cquit 3')
end
`
	if err := os.WriteFile(init, []byte(check), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nvim, "--headless", "-n", "-i", "NONE", "-u", init, "+qall!")
	cmd.Dir = t.TempDir()
	cmd.Env = d.with("HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(out), "Error") {
		t.Errorf("%s: Neovim with the snippet: %v\n%s", e.where(), err, out)
	}
}

// configRoot writes a configuration as a root's .devbroker.toml over a
// copy of the fixture.
func configRoot(t *testing.T, fixtureDir, toml string) string {
	t.Helper()
	dir := fixture(t, fixtureDir)
	if err := os.WriteFile(filepath.Join(dir, ".devbroker.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs the binary and returns its output and exit code.
func (d *docEnv) run(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(d.bin, args...)
	cmd.Dir = dir
	cmd.Env = d.env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// checkConfigErrors runs devbroker probe --trust on each root of the
// fixture and looks for each line of the block among the problems they
// report.
func (d *docEnv) checkConfigErrors(t *testing.T, e *docExample) {
	dir := fixture(t, e.arg(0))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var reported []string
	for _, ent := range entries {
		if !ent.IsDir() {
			continue
		}
		_, stderr, code := d.run(t, filepath.Join(dir, ent.Name()), "probe", "--trust")
		if code != 2 {
			t.Errorf("%s: devbroker probe --trust on %s/%s exited %d, want 2 (a trusted configuration that does not load)", e.where(), e.arg(0), ent.Name(), code)
		}
		for _, l := range splitLines(stderr) {
			reported = append(reported, strings.TrimPrefix(l, "devbroker probe: "))
		}
	}
	for _, want := range splitLines(e.block.body) {
		found := false
		for _, got := range reported {
			if matchText(want, got) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: %q is not what devbroker reports for any root of %s; it reports:\n%s", e.where(), want, e.arg(0), strings.Join(reported, "\n"))
		}
	}
}

// checkConfig loads a configuration snippet, pasted as is as a root's
// .devbroker.toml, through the real loader and the binary, and checks
// what the text says of it (configChecks).
func (d *docEnv) checkConfig(t *testing.T, e *docExample) {
	check, ok := configChecks[e.arg(0)]
	if !ok {
		t.Fatalf("%s: no configuration check named %q in configChecks", e.where(), e.arg(0))
	}
	root := configRoot(t, "examples/demo", e.block.body)
	cfg, err := loadConfig(root)
	if err != nil {
		t.Fatalf("%s: the snippet, pasted as .devbroker.toml, does not load: %v", e.where(), err)
	}
	base, err := loadConfig(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := d.run(t, root, "probe", "--trust", "--json"); code != 0 {
		t.Fatalf("%s: devbroker probe --trust with the snippet exited %d:\n%s", e.where(), code, stderr)
	}
	check(t, d, e, root, cfg, base)
}

// unchangedBut fails for each language and driver of base that cfg has
// otherwise than base, but those named.
func unchangedBut(t *testing.T, e *docExample, cfg, base *configs.Config, names ...string) {
	t.Helper()
	for name, l := range base.Languages {
		if slices.Contains(names, "languages."+name) {
			continue
		}
		if !reflect.DeepEqual(cfg.Languages[name], l) {
			t.Errorf("%s: the snippet changes languages.%s, which its text does not say: %+v, was %+v", e.where(), name, cfg.Languages[name], l)
		}
	}
	for name, dr := range base.Drivers {
		if slices.Contains(names, "drivers."+name) {
			continue
		}
		if !reflect.DeepEqual(cfg.Drivers[name], dr) {
			t.Errorf("%s: the snippet changes drivers.%s, which its text does not say", e.where(), name)
		}
	}
}

// configChecks hold each configuration snippet to what its text says.
var configChecks = map[string]func(t *testing.T, d *docEnv, e *docExample, root string, cfg, base *configs.Config){
	// docs/mcp.md's lanes: gopls's pool size, the rest of the driver as
	// the defaults have it.
	"lanes": func(t *testing.T, d *docEnv, e *docExample, root string, cfg, base *configs.Config) {
		unchangedBut(t, e, cfg, base, "drivers.gopls")
		gopls, gBase := *cfg.Drivers["gopls"], *base.Drivers["gopls"]
		if gopls.Lanes != 2 {
			t.Errorf("%s: gopls's lanes = %d, want 2", e.where(), gopls.Lanes)
		}
		gopls.Lanes = gBase.Lanes
		if !reflect.DeepEqual(gopls, gBase) {
			t.Errorf("%s: the snippet changes more of the gopls driver than its lanes: %+v, was %+v", e.where(), gopls, gBase)
		}
	},
	// docs/config.md's example: see its comments.
	"example": func(t *testing.T, d *docEnv, e *docExample, root string, cfg, base *configs.Config) {
		unchangedBut(t, e, cfg, base, "languages.shell", "languages.go", "languages.python", "drivers.shfmt", "drivers.shellcheck", "drivers.gopls")
		if cfg.Limits.MaxDiagnostics != 100 {
			t.Errorf("%s: max_diagnostics = %d, want 100", e.where(), cfg.Limits.MaxDiagnostics)
		}
		if sh := cfg.Languages["shell"]; sh == nil || !slices.Equal(sh.Format, []string{"shfmt"}) || !slices.Equal(sh.Lint, []string{"shellcheck"}) {
			t.Errorf("%s: shell is %+v, want shfmt formatting and shellcheck linting", e.where(), sh)
		}
		if _, ok := cfg.Languages["python"]; ok {
			t.Errorf("%s: python is still configured", e.where())
		}
		goLang, goBase := cfg.Languages["go"], base.Languages["go"]
		if !slices.Equal(goLang.Lint, []string{"staticcheck"}) {
			t.Errorf("%s: go lint = %v, want staticcheck alone", e.where(), goLang.Lint)
		}
		if !slices.Equal(goLang.FileTypes, goBase.FileTypes) || !slices.Equal(goLang.Format, goBase.Format) || !slices.Equal(goLang.Intelligence, goBase.Intelligence) {
			t.Errorf("%s: the keys languages.go leaves out changed: %+v, was %+v", e.where(), goLang, goBase)
		}
		gopls, gBase := cfg.Drivers["gopls"], base.Drivers["gopls"]
		if !slices.Equal(gopls.Command, []string{"/opt/go/bin/gopls", "serve"}) {
			t.Errorf("%s: gopls's command is %v", e.where(), gopls.Command)
		}
		if gopls.Install != gBase.Install || gopls.Type != gBase.Type || !slices.Equal(gopls.VersionCommand, gBase.VersionCommand) {
			t.Errorf("%s: the rest of the gopls driver did not stay", e.where())
		}
		for k, v := range gBase.Settings {
			if !reflect.DeepEqual(gopls.Settings[k], v) {
				t.Errorf("%s: gopls's setting %s is %v, the default's %v: the snippet drops a setting devbroker relies on", e.where(), k, gopls.Settings[k], v)
			}
		}
		if gopls.Settings["staticcheck"] != false {
			t.Errorf("%s: gopls's settings %v lack staticcheck = false", e.where(), gopls.Settings)
		}
		// Pasted as is, Go is still checked and linted where
		// /opt/go/bin/gopls is not: nothing is turned off.
		for _, kind := range []string{"check", "lint"} {
			stdout, stderr, code := d.run(t, root, kind, "--trust")
			if code != 0 {
				t.Errorf("%s: devbroker %s --trust on a clean Go module with the snippet exited %d, want 0:\n%s%s", e.where(), kind, code, stdout, stderr)
			}
		}
	},
	// The README's language server added by configuration: pyright checks
	// Python, and nothing else changes.
	"pyright": func(t *testing.T, d *docEnv, e *docExample, root string, cfg, base *configs.Config) {
		unchangedBut(t, e, cfg, base, "languages.python", "drivers.pyright")
		py := cfg.Languages["python"]
		if py == nil || !slices.Equal(py.Check, []string{"pyright"}) || !slices.Equal(py.FileTypes, []string{"*.py", "*.pyi"}) {
			t.Errorf("%s: python is %+v, want pyright checking *.py and *.pyi", e.where(), py)
		}
		pr := cfg.Drivers["pyright"]
		if pr == nil || pr.Type != "lsp" || !slices.Equal(pr.Command, []string{"pyright-langserver", "--stdio"}) || pr.LanguageID != "python" {
			t.Errorf("%s: the pyright driver is %+v", e.where(), pr)
		}
		if pb := base.Languages["python"]; !slices.Equal(py.Lint, pb.Lint) || !slices.Equal(py.Format, pb.Format) {
			t.Errorf("%s: python's lint and format changed: %+v, was %+v", e.where(), py, pb)
		}
	},
	// docs/verdicts.md's junit driver: Python's tests run by pytest as a
	// junit driver, which runs the repository's code; nothing else changes.
	"junit": func(t *testing.T, d *docEnv, e *docExample, root string, cfg, base *configs.Config) {
		unchangedBut(t, e, cfg, base, "languages.python", "drivers.unit")
		if py := cfg.Languages["python"]; py == nil || !slices.Equal(py.Test, []string{"unit"}) || !slices.Equal(py.FileTypes, base.Languages["python"].FileTypes) {
			t.Errorf("%s: python is %+v, want its tests run by unit alone", e.where(), py)
		}
		u := cfg.Drivers["unit"]
		if u == nil || u.Type != "junit" || !slices.Contains(u.Command, "--junitxml={report}") || !u.RunsRepositoryCode {
			t.Errorf("%s: the unit driver is %+v, want a junit driver writing its report to {report}, running the repository's code", e.where(), u)
		}
	},
}

// loadConfig is root's configuration, every entry of its project file
// included whether trusted or not, or its first problem.
func loadConfig(root string) (*configs.Config, error) {
	p, err := configs.LoadProject(root)
	if err != nil {
		return nil, err
	}
	if p.Invalid != nil {
		return nil, p.Invalid
	}
	return p.Config, nil
}
