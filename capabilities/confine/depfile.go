package confine

// This file reads what a compiler says it read: the make rule of -MD,
// the header list of -H, and the line markers of -E.

import (
	"strconv"
	"strings"
)

// parseDeps returns the prerequisites of the make rules in data, as gcc
// and clang write them for -MD: "target: dep dep \" with continuation
// lines, a space in a name escaped as "\ ", '#' as "\#" and '$' as "$$".
// Targets are left out; a name is listed once, in order.
func parseDeps(data string) []string {
	var out []string
	seen := map[string]bool{}
	data = strings.ReplaceAll(data, "\r\n", "\n")
	// Join continuation lines: a backslash that ends a line.
	var b strings.Builder
	for i := 0; i < len(data); i++ {
		if data[i] == '\\' && i+1 < len(data) && data[i+1] == '\n' {
			b.WriteByte(' ')
			i++
			continue
		}
		b.WriteByte(data[i])
	}
	for _, line := range strings.Split(b.String(), "\n") {
		words := depWords(line)
		// The targets end at the first word that ends in an unescaped
		// colon (or a lone colon).
		colon := -1
		for i, w := range words {
			if w.colon {
				colon = i
				break
			}
		}
		if colon < 0 {
			continue
		}
		for _, w := range words[colon+1:] {
			if w.text != "" && !seen[w.text] {
				seen[w.text] = true
				out = append(out, w.text)
			}
		}
	}
	return out
}

// depWord is one name of a rule; colon: the name (a target) ended with
// the rule's colon.
type depWord struct {
	text  string
	colon bool
}

// depWords splits a rule's line into its names, unescaping them.
func depWords(line string) []depWord {
	var out []depWord
	var cur strings.Builder
	inWord := false
	flush := func(colon bool) {
		if inWord || colon {
			out = append(out, depWord{text: cur.String(), colon: colon})
		}
		cur.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '#' || line[i+1] == '\t'):
			cur.WriteByte(line[i+1])
			inWord = true
			i++
		case c == '$' && i+1 < len(line) && line[i+1] == '$':
			cur.WriteByte('$')
			inWord = true
			i++
		case c == ' ' || c == '\t':
			flush(false)
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') && !isDriveColon(cur.String(), line, i):
			flush(true)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush(false)
	return out
}

// isDriveColon reports whether the colon at line[i] ends a Windows drive
// letter ("c:" before "\dir"), which is part of a name.
func isDriveColon(word, line string, i int) bool {
	return len(word) == 1 && i+1 < len(line) && (line[i+1] == '\\' || line[i+1] == '/')
}

// parseHeaderList returns the files of -H's list in a compiler's standard
// error ("... path", one dot per include depth; "! path" for a
// precompiled header used, "x path" for one found invalid).
func parseHeaderList(stderr string) []string {
	var out []string
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSuffix(line, "\r")
		i := 0
		for i < len(line) && line[i] == '.' {
			i++
		}
		if i == 0 && (strings.HasPrefix(line, "! ") || strings.HasPrefix(line, "x ")) {
			i = 1
		}
		if i == 0 || i+1 >= len(line) || line[i] != ' ' {
			continue
		}
		out = append(out, line[i+1:])
	}
	return out
}

// marker is a line marker of preprocessed output: `# N "file" flags`.
type marker struct {
	line  int
	file  string
	enter bool // flag 1: a file is entered (included)
	leave bool // flag 2: back in the including file
}

// parseMarker reads a line marker ("# 12 \"a.c\" 1 3"; also "#line 12
// \"a.c\""), reporting whether line is one.
func parseMarker(line string) (marker, bool) {
	rest, ok := strings.CutPrefix(line, "#")
	if !ok {
		return marker{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	rest = strings.TrimPrefix(rest, "line")
	rest = strings.TrimLeft(rest, " \t")
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 {
		return marker{}, false
	}
	num, _ := strconv.Atoi(rest[:n])
	rest = strings.TrimLeft(rest[n:], " \t")
	if !strings.HasPrefix(rest, `"`) {
		return marker{}, false
	}
	// The name: a C string, with \\, \" and octal escapes.
	var name strings.Builder
	i := 1
	for ; i < len(rest) && rest[i] != '"'; i++ {
		if rest[i] != '\\' || i+1 >= len(rest) {
			name.WriteByte(rest[i])
			continue
		}
		i++
		if rest[i] >= '0' && rest[i] <= '7' {
			v, j := 0, 0
			for j < 3 && i+j < len(rest) && rest[i+j] >= '0' && rest[i+j] <= '7' {
				v = v*8 + int(rest[i+j]-'0')
				j++
			}
			name.WriteByte(byte(v))
			i += j - 1
			continue
		}
		name.WriteByte(rest[i])
	}
	if i >= len(rest) {
		return marker{}, false
	}
	m := marker{line: num, file: name.String()}
	for _, f := range strings.Fields(rest[i+1:]) {
		switch f {
		case "1":
			m.enter = true
		case "2":
			m.leave = true
		}
	}
	return m, true
}

// place is a line of a file.
type place struct {
	file string
	line int
}

// includers walks preprocessed output and calls found with each file
// entered (as the marker names it) and the place of the #include that
// entered it (the including file as its line markers name it: the name a
// #line gave it, if any); found returns false to stop.
func includers(out string, found func(file string, at place) bool) {
	var stack []place
	cur := place{}
	for len(out) > 0 {
		line := out
		if i := strings.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			out = ""
		}
		m, ok := parseMarker(strings.TrimSuffix(line, "\r"))
		if !ok {
			cur.line++
			continue
		}
		switch {
		case m.enter:
			if !found(m.file, cur) {
				return
			}
			stack = append(stack, cur)
		case m.leave && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
		cur = place{file: m.file, line: m.line}
	}
}
