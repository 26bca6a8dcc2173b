// Package section keeps several benchmarks' results in one Markdown file:
// each benchmark owns a section between two HTML comments, which it
// replaces whole, and leaves the rest of the file as it was.
package section

import (
	"os"
	"strings"
)

// markers are the comments around the section name.
func markers(name string) (begin, end string) {
	return "<!-- " + name + " -->\n", "<!-- /" + name + " -->\n"
}

// Replace returns doc with the section name's body set to body: in place
// when doc has the section, appended otherwise.
func Replace(doc, name, body string) string {
	begin, end := markers(name)
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	block := begin + body + end
	j := strings.LastIndex(doc, end)
	i := -1
	if j >= 0 {
		i = strings.LastIndex(doc[:j], begin)
	}
	if i >= 0 {
		return doc[:i] + block + doc[j+len(end):]
	}
	if doc != "" && !strings.HasSuffix(doc, "\n\n") {
		doc = strings.TrimRight(doc, "\n") + "\n\n"
	}
	return doc + block
}

// ReplaceAfter is Replace, except that a section name doc lacks goes
// right after the section after when doc has that one.
func ReplaceAfter(doc, name, after, body string) string {
	begin, _ := markers(name)
	_, afterEnd := markers(after)
	j := strings.LastIndex(doc, afterEnd)
	if strings.Contains(doc, begin) || j < 0 {
		return Replace(doc, name, body)
	}
	j += len(afterEnd)
	return Replace(doc[:j], name, body) + "\n" + strings.TrimLeft(doc[j:], "\n")
}

// Leading returns the section name of old, markers included and followed
// by a blank line, when old begins with it (leading blank lines aside),
// and "" otherwise: a benchmark that rewrites the top of the file keeps a
// section that leads it in front.
func Leading(old, name string) string {
	begin, end := markers(name)
	rest := strings.TrimLeft(old, "\n")
	j := strings.Index(rest, end)
	if !strings.HasPrefix(rest, begin) || j < 0 {
		return ""
	}
	return rest[:j+len(end)] + "\n"
}

// Keep returns the sections of old other than the one named skip, as
// Replace would write them, to carry into a rewritten file.
func Keep(old, skip string) string {
	var out strings.Builder
	rest := old
	for {
		i := strings.Index(rest, "<!-- ")
		if i < 0 {
			return out.String()
		}
		rest = rest[i:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return out.String()
		}
		name := strings.TrimSuffix(strings.TrimPrefix(rest[:nl], "<!-- "), " -->")
		_, end := markers(name)
		j := strings.Index(rest, end)
		if strings.HasPrefix(name, "/") || j < 0 {
			rest = rest[nl+1:]
			continue
		}
		if name != skip {
			out.WriteString("\n" + rest[:j+len(end)])
		}
		rest = rest[j+len(end):]
	}
}

// Write replaces the section name of the file path with body, keeping
// the rest of the file ("" for path writes nothing).
func Write(path, name, body string) error {
	return WriteAfter(path, name, "", body)
}

// WriteAfter is Write with ReplaceAfter: a new section goes after the
// section after ("" appends it).
func WriteAfter(path, name, after, body string) error {
	if path == "" {
		return nil
	}
	prev, _ := os.ReadFile(path)
	doc := Replace(string(prev), name, body)
	if after != "" && after != name {
		doc = ReplaceAfter(string(prev), name, after, body)
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
