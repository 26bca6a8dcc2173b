package capabilities

// This file defines what keeps text read from files outside the root out
// of the answers: a tool that runs a compiler may quote the files it
// included. gopls reports a cgo package whose C preamble does not compile
// as one diagnostic on the Go file, whose message is gcc's whole output:
// `In file included from a/a.go:3:`, then `../../outside/secret.h:1:1:
// error: ...` and the line of secret.h with a caret under it. The
// per-path filter of the drivers keeps diagnostics *on* files outside the
// root out, but not text quoted inside a diagnostic on a file under it.
//
// So every message of an answer (diagnostics, their related places, and
// the drivers' status messages) goes through [withholdOutside]: a line
// that names a place in a file that is not the root's to show keeps that
// place and its severity word (error, warning, note) and loses the rest,
// which may quote the file (gcc's ‘SECRET’ undeclared); the lines after
// it that name no place (the source excerpt, the caret, a fix-it) are
// dropped, up to the next line that names a place. Lines before the first
// place, and places in files under the root, stay as the tool wrote them.

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// Withheld replaces what a tool said about a place in a file outside the
// root.
const Withheld = "[text withheld: the file is outside the root]"

// placeLine matches a line of compiler output that names a place: gcc's
// and clang's "path:line[:column]: severity: message", the include chain
// ("In file included from path:line:" and its indented "from path:line,")
// and gcc's "path: In function ‘f’:" context lines. The path is
// everything up to the colon before the line number (spaces included).
var placeLine = regexp.MustCompile(`^(\s*(?:In file included from|from)\s+)?([^\s:][^:]*?):(\d+)(?::(\d+))?([:,]|$)(.*)$`)

// contextLine matches gcc's "path: In function ‘f’:", "path: At top
// level:" and the like, which name a file and no line (and such a line
// once withheld).
var contextLine = regexp.MustCompile(`^([^\s:][^:]*?): ((?:In|At) .*|` + regexp.QuoteMeta(Withheld) + `)$`)

// severityWord matches the severity a compiler's message starts with.
var severityWord = regexp.MustCompile(`^\s*((?:fatal )?error|warning|note|remark)\s*:`)

// withholdOutside is msg with what a compiler said about places in files
// outside the root withheld (see the file comment). inside reports
// whether a path as the tool printed it is a file the root may show.
func withholdOutside(msg string, inside func(p string) bool) string {
	if !mayNamePlace(msg) {
		return msg
	}
	lines := strings.Split(msg, "\n")
	out := lines[:0:0]
	outside, changed := false, false
	for _, l := range lines {
		if m := placeLine.FindStringSubmatch(l); m != nil {
			outside = !inside(m[2])
			if !outside {
				out = append(out, l)
				continue
			}
			changed = true
			place := m[1] + m[2] + ":" + m[3]
			if m[4] != "" {
				place += ":" + m[4]
			}
			if m[1] != "" { // the include chain names places, no text
				out = append(out, place+m[5])
				continue
			}
			rest := place + ":"
			if w := severityWord.FindStringSubmatch(m[6]); w != nil {
				rest += " " + w[1] + ":"
			}
			out = append(out, rest+" "+Withheld)
			continue
		}
		if m := contextLine.FindStringSubmatch(l); m != nil {
			outside = !inside(m[1])
			if !outside {
				out = append(out, l)
				continue
			}
			changed = true
			out = append(out, m[1]+": "+Withheld)
			continue
		}
		if outside {
			changed = true
			continue
		}
		out = append(out, l)
	}
	if !changed {
		return msg
	}
	return strings.Join(out, "\n")
}

// mayNamePlace reports whether a line of msg could match placeLine or
// contextLine: it has a colon followed by a digit, by " In " or " At ",
// or by the withheld note. Most messages have none, and skip the regular
// expressions.
func mayNamePlace(msg string) bool {
	for i := strings.IndexByte(msg, ':'); i >= 0; {
		rest := msg[i+1:]
		if rest != "" && rest[0] >= '0' && rest[0] <= '9' ||
			strings.HasPrefix(rest, " In ") || strings.HasPrefix(rest, " At ") || strings.HasPrefix(rest, " "+Withheld) {
			return true
		}
		j := strings.IndexByte(rest, ':')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// confine withholds, in every message of resp, what a tool quoted from
// files outside the root (see the file comment). A path a tool printed is
// the root's to show only when it is wherever the tool's working
// directory was: the root, or a directory between it and the file the
// diagnostic is on (go list prints paths relative to the module's
// directory, gcc relative to the package's).
func (s *Set) confine(resp *engine.Response) {
	if resp == nil {
		return
	}
	fsys, err := rootfs.New(s.root)
	if err != nil {
		// No root to judge paths by: every place is outside it.
		fsys = nil
	}
	insideFor := func(file string) func(string) bool {
		return func(p string) bool { return shownFrom(fsys, file, p) }
	}
	for i := range resp.Diagnostics {
		d := &resp.Diagnostics[i]
		in := insideFor(d.Path)
		d.Message = withholdOutside(d.Message, in)
		for j := range d.Related {
			d.Related[j].Message = withholdOutside(d.Related[j].Message, in)
		}
	}
	for i := range resp.Drivers {
		resp.Drivers[i].Message = withholdOutside(resp.Drivers[i].Message, insideFor(""))
	}
}

// shownFrom reports whether p, a path a tool printed while answering
// about the workspace file file ("" for none), names a file the root may
// show, whichever of the directories from the root down to file's the
// tool resolved it from.
func shownFrom(fsys *rootfs.FS, file, p string) bool {
	if fsys == nil {
		return false
	}
	root := fsys.Root()
	if filepath.IsAbs(p) {
		_, ok := fsys.Inside(p)
		return ok
	}
	bases := []string{root}
	for dir := path.Dir(file); file != "" && dir != "." && dir != "/" && !strings.HasPrefix(dir, ".."); dir = path.Dir(dir) {
		bases = append(bases, filepath.Join(root, filepath.FromSlash(dir)))
	}
	for _, b := range bases {
		if _, ok := fsys.Inside(filepath.Join(b, p)); !ok {
			return false
		}
	}
	return true
}
