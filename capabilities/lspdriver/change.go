package lspdriver

// This file defines rename, and the turning of a server's workspace edit
// (a rename's, or an applied code action's) into a change of the
// workspace: Result.Edits holds the new content of every file it edits
// (by its path before any rename), Renames the files it moves, in order,
// and Bases the revision of the disk content an edit was made from for
// files the workspace does not hold. Nothing is written: the engine
// applies the change to the workspace, all or nothing.
//
// A change is refused whole, naming the file, when it edits or moves a
// file outside the root, or one under it that is not the root's to show
// (reached through a symlink that leaves it, or deleted in the
// workspace), when it creates or deletes a file (the workspace change
// has no such step yet), or when it edits a file the server read on disk
// whose disk content is not the workspace's. A renamed directory is the
// renames of the files under it (on disk and in the workspace).

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// rename answers rename.
func (d *Driver) rename(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, req *capabilities.Request) *capabilities.Result {
	q := req.Query
	w, err := srv.Rename(ctx, v.list(), v.abs(q.Path), position(ms.get(q.Path), q.Line, q.Column), q.NewName)
	if err != nil {
		return refusal(nil, err)
	}
	res, err := change(v, req, "the rename", w.Ops())
	if err != nil {
		return refusal(nil, err)
	}
	return res
}

// edited is one file of a change: its path before any rename, the
// content the server saw and the content after the change so far.
type edited struct {
	orig       string
	base       *text.Doc
	baseText   string
	text       string
	fromDisk   bool // not in the request's workspace: Bases records it
	renamedOut bool // moved away: its old path holds nothing now
}

// changer builds one change.
type changer struct {
	v     *view
	req   *capabilities.Request
	what  string
	files map[string]*edited // by current path
	res   *capabilities.Result
}

// change turns the steps of a workspace edit into a result, or refuses
// them whole.
func change(v *view, req *capabilities.Request, what string, ops []lsp.FileOp) (*capabilities.Result, error) {
	c := &changer{v: v, req: req, what: what, files: map[string]*edited{},
		res: &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}, Bases: map[string]string{}}}}
	for _, op := range ops {
		if err := c.step(op); err != nil {
			return nil, err
		}
	}
	for _, f := range c.files {
		if f.text == f.baseText {
			continue
		}
		c.res.Edits[f.orig] = newDoc(f.base, f.text)
		if f.fromDisk {
			c.res.Bases[f.orig] = f.base.Revision()
		}
	}
	return c.res, nil
}

func (c *changer) refuse(format string, args ...any) error {
	return fmt.Errorf("%s %s; nothing was changed: %w", c.what, fmt.Sprintf(format, args...), errRefused)
}

// step applies one step of the edit to the change.
func (c *changer) step(op lsp.FileOp) error {
	switch op.Kind {
	case lsp.OpEdit:
		p, err := c.path(op.Path, op.URI)
		if err != nil {
			return err
		}
		f, err := c.file(p)
		if err != nil {
			return err
		}
		out, err := applyEdits(f.text, op.Edits)
		if err != nil {
			return c.refuse("has edits of %s that do not apply: %v", p, err)
		}
		f.text = out
		return nil
	case lsp.OpRename:
		return c.move(op)
	case lsp.OpCreate, lsp.OpDelete:
		return c.refuse("would %s the file %s, which a change of the workspace cannot do yet", op.Kind, op.URI)
	}
	return c.refuse("holds an operation %q this client does not know", op.Kind)
}

// path is the workspace path of a file a step names, or a refusal.
func (c *changer) path(abs, uri string) (string, error) {
	if abs == "" {
		return "", c.refuse("changes %s, which is not a file", uri)
	}
	if c.v.rel(abs) == "" {
		return "", c.refuse("changes %s, outside the workspace root", abs)
	}
	p := c.v.shown(abs)
	if p == "" {
		return "", c.refuse("changes %s, which is reached through a symlink that leaves the root, or deleted in the workspace", c.v.rel(abs))
	}
	return p, nil
}

// file returns the state of the file at current path p, reading it first:
// the workspace's content, which the server was shown for an open
// document and read on disk for another (then the two must agree), or
// the disk's for a file the workspace does not hold.
func (c *changer) file(p string) (*edited, error) {
	if f, ok := c.files[p]; ok {
		if f.renamedOut {
			return nil, c.refuse("edits %s after moving it away", p)
		}
		return f, nil
	}
	f := &edited{orig: p}
	disk := c.v.read(p)
	var diskDoc *text.Doc
	if disk != nil {
		diskDoc, _ = text.Parse(disk)
	}
	if doc := c.req.All[p]; doc != nil {
		if _, open := c.v.docs[p]; !open && diskDoc != nil && diskDoc.Content() != doc.Content() {
			return nil, c.refuse("edits %s as the disk holds it, which is not the workspace's copy; read the file again (or discard the session's copy) and retry", p)
		}
		f.base = doc
	} else {
		if diskDoc == nil {
			return nil, c.refuse("edits %s, which cannot be read", p)
		}
		f.base, f.fromDisk = diskDoc, true
	}
	f.baseText = f.base.Content()
	f.text = f.baseText
	c.files[p] = f
	return f, nil
}

// move records a rename of a file, or of a directory as the renames of
// the files under it.
func (c *changer) move(op lsp.FileOp) error {
	from, err := c.path(op.Path, op.URI)
	if err != nil {
		return err
	}
	to, err := c.path(op.NewPath, op.NewURI)
	if err != nil {
		return err
	}
	pairs := [][2]string{{from, to}}
	if info, serr := c.v.fs.Stat(from); serr == nil && info.IsDir() {
		pairs = c.under(from, to)
	}
	for _, pr := range pairs {
		if c.exists(pr[1]) && !op.Overwrite {
			if op.IgnoreIfExists {
				continue
			}
			return c.refuse("moves %s to %s, which exists", pr[0], pr[1])
		}
		f, err := c.file(pr[0])
		if err != nil {
			return err
		}
		moved := *f
		f.renamedOut = true
		c.files[pr[1]] = &moved
		c.res.Renames = append(c.res.Renames, engine.FileRename{From: pr[0], To: pr[1]})
	}
	return nil
}

// exists reports whether a file is at p: in the change, the workspace or
// on disk.
func (c *changer) exists(p string) bool {
	if f, ok := c.files[p]; ok {
		return !f.renamedOut
	}
	if c.req.All[p] != nil {
		return true
	}
	_, err := c.v.fs.Stat(p)
	return err == nil
}

// under pairs each file under the directory from (on disk, and in the
// workspace) with its path under to.
func (c *changer) under(from, to string) [][2]string {
	set := map[string]bool{}
	for p := range c.req.All {
		if strings.HasPrefix(p, from+"/") {
			set[p] = true
		}
	}
	_ = c.v.fs.Walk(func(rel string, d fs.DirEntry) error {
		switch {
		case d.IsDir() && !strings.HasPrefix(from+"/", rel+"/") && !strings.HasPrefix(rel, from+"/"):
			return fs.SkipDir
		case !d.IsDir() && strings.HasPrefix(rel, from+"/") && d.Type().IsRegular() && !c.v.deleted[rel]:
			set[rel] = true
		}
		return nil
	})
	var out [][2]string
	for p := range set {
		out = append(out, [2]string{p, to + p[len(from):]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
