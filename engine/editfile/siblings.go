package editfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// ReadFileParams are read_file's parameters; the tags are their one
// description (see [ReadFileSpec]).
type ReadFileParams struct {
	FilePath string `json:"file_path" jsonschema:"Absolute path to the file"`
	Offset   *int   `json:"offset,omitempty" jsonschema:"the 1-based line to start at (default 1)"`
	Limit    *int   `json:"limit,omitempty" jsonschema:"how many lines to return (default 2000)"`
}

// WriteFileParams are write_file's parameters; the tags are their one
// description (see [WriteFileSpec]).
type WriteFileParams struct {
	FilePath string  `json:"file_path" jsonschema:"Absolute path to the file; missing directories are created"`
	Content  *string `json:"content" jsonschema:"the whole new content of the file"`
	Revision string  `json:"revision,omitempty" jsonschema:"for an existing file, its revision from your last read; a mismatch rejects the write"`
	Force    bool    `json:"force,omitempty" jsonschema:"overwrite a file whose owner has no write permission (mode such as 0444); it keeps its mode. Without it such a file is refused, naming its mode."`
}

// DefaultReadLimit is how many lines read_file returns by default.
const DefaultReadLimit = 2000

// ReadFile shows a file's lines numbered, with its revision, and marks it
// as read.
func (s *Session) ReadFile(ctx context.Context, params []byte) (*Result, error) {
	var p ReadFileParams
	if err := decode(readFileSpec, params, &p, "read_file"); err != nil {
		return nil, err
	}
	f, err := s.load(p.FilePath)
	if err != nil {
		return nil, err
	}
	offset, limit := 1, DefaultReadLimit
	if p.Offset != nil {
		offset = *p.Offset
	}
	if p.Limit != nil {
		limit = *p.Limit
	}
	if offset < 1 || limit < 1 {
		return nil, fault.New(fault.BadArgument, "read_file: offset and limit must be 1 or more (offset is a 1-based line)")
	}
	b := bodyOf(f.doc)
	n := lineCount(b.s)
	if n > 0 && offset > n {
		return nil, fault.New(fault.Bounds, "read_file: offset %d is past the end of %s: the file has %d lines", offset, f.abs, n)
	}
	last := offset + limit - 1
	if last > n {
		last = n
	}
	if n > 0 {
		if fit := fitLines(b.s, offset, last, MaxOutput); fit < last {
			return nil, tooLong(f.abs, b.s, offset, last, fit, func(from, to int) string { return fmt.Sprintf("offset %d with limit %d", from, to-from+1) })
		}
	}
	var out strings.Builder
	if n == 0 {
		out.WriteString("(empty file)\n")
	} else {
		out.WriteString(numbered(b.s, offset, last))
		if offset > 1 || last < n {
			fmt.Fprintf(&out, "(lines %d-%d of %d; pass offset to read more)\n", offset, last, n)
		}
	}
	fmt.Fprintf(&out, "revision: %s\n", f.rev)
	s.markSeen(f.rel, f.rev)
	return &Result{Path: f.abs, Text: out.String(), Revision: f.rev}, nil
}

// WriteFile writes a whole file atomically and returns its revision. An
// existing file must have been read at its current revision (or revision
// given), like an edit.
func (s *Session) WriteFile(ctx context.Context, params []byte) (*Result, error) {
	var p WriteFileParams
	if err := decode(writeFileSpec, params, &p, "write_file"); err != nil {
		return nil, err
	}
	data := []byte(*p.Content)
	if err := text.Check(data); err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "write_file: content is not text; a file is text (valid UTF-8 with no NUL byte), nothing was written")
	}
	f, err := s.load(p.FilePath)
	switch {
	case err == nil:
		if err := s.checkWorkspace(f); err != nil {
			return nil, err
		}
		if err := s.checkRead(f, p.Revision); err != nil {
			return nil, err
		}
		if string(f.data) == *p.Content {
			return nil, fault.New(fault.BadArgument, "write_file: %s already has exactly this content; nothing to do", f.abs)
		}
	case errors.Is(err, fs.ErrNotExist):
		rel, abs, rerr := s.resolve(p.FilePath)
		if rerr != nil {
			return nil, rerr
		}
		if err := rootfs.CheckNew(rel); err != nil {
			return nil, fault.Wrap(fault.BadArgument, err, "write_file: cannot create this file")
		}
		if p.Revision != "" {
			return nil, fault.New(fault.Conflict, "write_file: %s does not exist any more, but revision %s was given: it was deleted since you read it", abs, p.Revision)
		}
		f = &file{rel: rel, abs: abs}
		if err := s.checkWorkspace(f); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	rev, sums := revisionOf(nil, 0, data)
	rev, after, err := s.commit(f, data, revEntry{rev: rev, sums: sums}, p.Force)
	if err != nil {
		return nil, err
	}
	verb := "Wrote"
	if f.data == nil {
		verb = "Created"
	}
	msg := fmt.Sprintf("%s %s (%d bytes).\nrevision: %s\n", verb, f.abs, len(data), rev) + changedAfterNote(f.abs, after)
	return &Result{Path: f.abs, Text: msg, Revision: rev, Changed: true, ChangedAfterWrite: after}, nil
}
