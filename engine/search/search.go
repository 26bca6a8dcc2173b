// Package search finds text in a root's files as a session's workspace
// sees them: a file the workspace holds is searched in its workspace
// content (unwritten changes included, a moved file under its new path),
// a file the workspace deleted or moved away is not searched, and every
// other file is read from the disk through engine/rootfs. The disk's
// files are those a walk of the root finds outside what .gitignore
// files ignore (the root's and nested ones, as git reads them), version
// control's directories and symlinks. Binary files (a NUL byte in the
// first 8 KiB), files over [MaxFileBytes] (over [MaxNamedFileBytes] for a
// file a path names) and files that cannot be read are not searched, and
// the answer names each ([Result.Skipped]). A file the workspace holds is
// searched even where .gitignore ignores it: it was asked for.
//
// A pattern is literal, or an RE2 regular expression; a match lies within
// one line. The answer lists the matches as locations sorted by path,
// line and column, at most a cap, and counts the rest.
package search

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// Limits of a search.
const (
	// MaxMatches is the default cap on the matches an answer lists.
	MaxMatches = 100
	// MaxFileBytes is the largest file on disk that a search's walk
	// searches, the workspace's default per-file limit.
	MaxFileBytes = 2 << 20
	// MaxNamedFileBytes is the largest file on disk that is searched when
	// a path names it (not a glob, not a directory).
	MaxNamedFileBytes = 64 << 20
	// MaxSkipped is the most skipped files an answer names.
	MaxSkipped = 20
	// binaryProbe is how much of a file is looked at for a NUL byte.
	binaryProbe = 8 << 10
	// maxText is the most characters of a line a match shows.
	maxText = 200
)

// Workspace is what a search needs of a session's workspace;
// engine/workspace's Workspace has it.
type Workspace interface {
	// Paths lists the files the workspace holds, sorted.
	Paths() []string
	// Doc is a held file's current content.
	Doc(path string) (*text.Doc, bool)
	// Unwritten lists the paths whose content or place differs from the
	// disk, deleted and moved-away paths included.
	Unwritten() []string
}

// Query is what to search for.
type Query struct {
	// Pattern is the text to find, or with Regex an RE2 expression.
	Pattern string
	Regex   bool
	// Paths narrow the search to files matching a glob or lying at or
	// under a path; none: the whole root.
	Paths []string
	// Max caps the matches listed; 0 means [MaxMatches].
	Max int
}

// Match is one match: 1-based line and columns counted in characters,
// EndColumn just past the match, and the text of its line.
type Match struct {
	Path               string
	Line, Column       int
	EndLine, EndColumn int
	// Text is the line without its terminator; a line longer than 200
	// characters is cut to 200 around the match, "…" marking each cut.
	Text string
}

// Result is a search's answer.
type Result struct {
	// Matches are sorted by path, line and column.
	Matches []Match
	// Omitted counts the matches past the cap.
	Omitted int
	// Files counts the files searched.
	Files int
	// Skipped names the files selected but not searched, and why, at
	// most [MaxSkipped] of them, sorted by path; SkippedMore counts the
	// rest.
	Skipped     []Skip
	SkippedMore int
}

// Skip is a file a search did not search.
type Skip struct {
	Path   string
	Reason string
}

// Search runs q over the root of fsys as ws sees it. A bad pattern or
// path is a bad_argument fault; a path that matches no file to search is
// not_found.
func Search(ctx context.Context, fsys *rootfs.FS, ws Workspace, q Query) (*Result, error) {
	m, err := compile(q.Pattern, q.Regex)
	if err != nil {
		return nil, err
	}
	sels, err := parseSelectors(q.Paths)
	if err != nil {
		return nil, err
	}
	files, err := collect(fsys, ws, sels)
	if err != nil {
		return nil, err
	}
	max := q.Max
	if max <= 0 {
		max = MaxMatches
	}
	r := &Result{Matches: []Match{}}
	dirs := &openDirs{fsys: fsys}
	defer dirs.close()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, why := f.content(dirs)
		if why != "" {
			r.skip(f.path, why)
			continue
		}
		r.Files++
		if len(r.Matches) >= max {
			r.Omitted += m.count(s)
			continue
		}
		r.add(f.path, s, m, max)
	}
	return r, nil
}

// skip notes a file not searched.
func (r *Result) skip(path, why string) {
	if len(r.Skipped) >= MaxSkipped {
		r.SkippedMore++
		return
	}
	r.Skipped = append(r.Skipped, Skip{Path: path, Reason: why})
}

// add adds the matches in s, the content of path, up to max listed.
func (r *Result) add(path, s string, m *matcher, max int) {
	var mp *text.Mapper
	mapper := func() *text.Mapper {
		if mp == nil {
			mp = text.NewMapper(s)
		}
		return mp
	}
	m.each(s, mapper, func(start, end int) {
		if len(r.Matches) >= max {
			r.Omitted++
			return
		}
		r.Matches = append(r.Matches, locate(path, s, mapper(), start, end))
	})
}

// locate makes the match of s[start:end], which lies within one line.
func locate(path, s string, mp *text.Mapper, start, end int) Match {
	line, col := mp.Position(start, text.Chars)
	_, endCol := mp.Position(end, text.Chars)
	ls := mp.Offset(line, 0, text.Bytes)
	le := mp.Offset(line, len(s), text.Bytes)
	return Match{
		Path: path, Line: line + 1, Column: col + 1, EndLine: line + 1, EndColumn: endCol + 1,
		Text: excerpt(s[ls:le], col),
	}
}

// excerpt is line cut to [maxText] characters around the character col
// (0-based) where a match starts, with "…" where it was cut.
func excerpt(line string, col int) string {
	n := utf8.RuneCountInString(line)
	if n <= maxText {
		return line
	}
	from := max(0, min(col-maxText/4, n-maxText))
	runes := []rune(line)
	out := string(runes[from : from+maxText])
	if from > 0 {
		out = "…" + out
	}
	if from+maxText < n {
		out += "…"
	}
	return out
}

// file is one file to search: held by the workspace (doc) or on disk.
type file struct {
	path string
	doc  *text.Doc
	// named is set when a path (not a glob, not a directory) names the
	// file: it is searched up to MaxNamedFileBytes.
	named bool
}

// content is the file's text (without a BOM), or why it is not searched:
// a disk file that cannot be read, is binary or is too large.
func (f file) content(dirs *openDirs) (string, string) {
	if f.doc != nil {
		return f.doc.Content(), ""
	}
	dir, name := path.Split(f.path)
	d, err := dirs.at(strings.TrimSuffix(dir, "/"))
	if err != nil {
		return "", "cannot be read: " + err.Error()
	}
	limit := int64(MaxFileBytes)
	if f.named {
		limit = MaxNamedFileBytes
	}
	data, _, err := d.ReadFileMax(name, limit)
	var tl *rootfs.TooLargeError
	switch {
	case errors.As(err, &tl) && f.named:
		return "", fmt.Sprintf("%s, over the %s a search reads of a file named in paths", size(tl.Size), size(MaxNamedFileBytes))
	case errors.As(err, &tl):
		return "", fmt.Sprintf("%s, over the %s a search reads of a file it finds; name the file in paths to search it (up to %s)", size(tl.Size), size(MaxFileBytes), size(MaxNamedFileBytes))
	case err != nil:
		return "", "cannot be read: " + err.Error()
	case slices.Contains(data[:min(len(data), binaryProbe)], 0):
		return "", "binary (a NUL byte in its first 8 KiB)"
	}
	return strings.TrimPrefix(string(data), "\uFEFF"), ""
}

// size is n bytes in the largest binary unit that keeps it at least 1.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

// openDirs holds open the directories of the file being read and of its
// ancestors read before: files come sorted by path, so a directory's
// files and its subdirectories' come together, and one open of each
// directory serves them all.
type openDirs struct {
	fsys  *rootfs.FS
	stack []*rootfs.Dir
	rels  []string
}

// at returns the open directory rel ("" for the root).
func (o *openDirs) at(rel string) (*rootfs.Dir, error) {
	for n := len(o.rels); n > 0 && !under(rel, o.rels[n-1]) && o.rels[n-1] != ""; n-- {
		o.stack[n-1].Close()
		o.stack, o.rels = o.stack[:n-1], o.rels[:n-1]
	}
	if n := len(o.rels); n > 0 && o.rels[n-1] == rel {
		return o.stack[n-1], nil
	}
	d, err := o.fsys.OpenDir(rel)
	if err != nil {
		return nil, err
	}
	o.stack, o.rels = append(o.stack, d), append(o.rels, rel)
	return d, nil
}

// close closes every directory held open.
func (o *openDirs) close() {
	for _, d := range o.stack {
		d.Close()
	}
}
