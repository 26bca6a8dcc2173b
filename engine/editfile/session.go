// Package editfile implements the edit_file tool (view, str_replace,
// insert, patch, replace_symbol, undo_edit) and its siblings read_file and
// write_file, over the files on disk under one root.
//
// The principal type is [Session]: one caller's read tracking and undo
// history. Edits go through the engine's text model, revisions and
// root-confined atomic writes; nothing here has its own copy of them.
package editfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// UndoDepth is how many earlier contents a session keeps per file.
const UndoDepth = 32

// DefaultMaxFileBytes is the largest file a session reads unless told
// otherwise ([Session.SetMaxFileBytes]): the workspace's default per-file
// limit, limits.max_file_bytes in .devbroker.toml.
const DefaultMaxFileBytes = 2 << 20

// Workspace is what edit_file needs from the same session's workspace: it
// refuses to edit a file with unwritten workspace changes, and refreshes an
// unchanged workspace copy after a commit.
type Workspace interface {
	// Pending reports whether the workspace holds changes to path that
	// are not on disk, and describes them.
	Pending(path string) (string, bool)
	// Refresh tells the workspace that path now holds doc on disk.
	Refresh(path string, doc *text.Doc, mode fs.FileMode)
}

// Session is one caller's edit_file state: which revision of each file it
// has seen, and each file's undo stack. It is safe for concurrent use.
type Session struct {
	fs *rootfs.FS
	ws Workspace

	// wmu serializes check-then-write sequences (commit, undo), so two
	// calls cannot both pass the check and overwrite each other: this
	// session's own lock, or the root's write lock (see SetWriteLock).
	wmu sync.Locker

	// maxBytes is the largest file the session reads (see SetMaxFileBytes).
	maxBytes int64

	mu   sync.Mutex
	seen map[string]string // path → revision this session last saw
	undo map[string][]undoEntry
	// dropped counts, per file, the undo entries dropped past UndoDepth.
	dropped map[string]int
	revs    revCache
	// bases hears what each file held before the session's first change
	// to it (see SetBaseRecorder); nil: nobody listens.
	bases BaseRecorder
}

// BaseRecorder hears, before each change a session makes on disk, what
// the file held (nil: no file), so that lint and check can tell the
// findings the session's changes introduced from those that were there
// before them (engine.Bases keeps the first it hears of each file).
type BaseRecorder interface {
	RecordBase(rel string, before []byte)
}

// SetBaseRecorder makes the session tell r what each file held before
// each change it makes to it. Call it before the session is used.
func (s *Session) SetBaseRecorder(r BaseRecorder) { s.bases = r }

// undoEntry is the content a file had before one of this session's
// mutations, and the revision that mutation produced.
type undoEntry struct {
	before []byte // nil: the file did not exist
	after  string // revision after the mutation
}

// NewSession returns a session over fsys. ws may be nil.
func NewSession(fsys *rootfs.FS, ws Workspace) *Session {
	return &Session{fs: fsys, ws: ws, wmu: &sync.Mutex{}, maxBytes: DefaultMaxFileBytes, seen: map[string]string{}, undo: map[string][]undoEntry{}}
}

// SetMaxFileBytes makes the session refuse to read (and so to view or
// edit) a file larger than n bytes: the workspace's per-file limit,
// limits.max_file_bytes in .devbroker.toml. n <= 0 keeps the default,
// [DefaultMaxFileBytes]. Call it before the session is used.
func (s *Session) SetMaxFileBytes(n int64) {
	if n > 0 {
		s.maxBytes = n
	}
}

// readFile reads rel, refusing a file over the session's limit (by its
// size, before reading it) with a bounds error naming the setting.
func (s *Session) readFile(rel, abs string) ([]byte, error) {
	data, _, err := s.fs.ReadFileMax(rel, s.maxBytes)
	var tl *rootfs.TooLargeError
	if errors.As(err, &tl) {
		size := fmt.Sprintf("%d bytes", tl.Size)
		if tl.AtLeast {
			size = fmt.Sprintf("more than %d bytes (it grew while being read)", tl.Limit)
		}
		return nil, fault.New(fault.Bounds, "%s is %s, over the per-file limit of %d bytes (limits.max_file_bytes in .devbroker.toml); it was not read. Work on a smaller file, or raise that limit (a project's .devbroker.toml applies once you trust the root: devbroker trust DIR)", abs, size, tl.Limit)
	}
	return data, err
}

// SetWriteLock makes the session hold l over each of its writes (the
// recheck of the file and its replacement) instead of a lock of its own.
// Every writer of the root must share l (engine.Engine.WriteLock), so
// that no write of another session lands between a check and its write.
// Call it before the session is used.
func (s *Session) SetWriteLock(l sync.Locker) { s.wmu = l }

// Result is the outcome of one call. It has no json tags: broker/wire maps
// it to the one encoding every surface sends.
type Result struct {
	// Path is the file's absolute path.
	Path string
	// Text is what the caller (a model) reads: numbered lines, a snippet
	// of the edit, or a diff, ending with the revision.
	Text string
	// Revision is the file's revision after the call (the would-be
	// revision for a dry run; "" after undoing a file's creation).
	Revision string
	// Diff is the unified diff of a dry run or an edit.
	Diff string
	// Changed reports whether the call wrote the file.
	Changed bool
	// Replaced counts the occurrences a str_replace with replace_all
	// replaced (or, in a dry run, would replace); 0 for every other call.
	Replaced int
	// ChangedAfterWrite reports that, when the call finished, the file no
	// longer held what it wrote: something outside the broker changed it
	// meanwhile. The write itself succeeded.
	ChangedAfterWrite bool
}

// file is a file loaded for an edit.
type file struct {
	rel  string // workspace path
	abs  string
	data []byte
	doc  *text.Doc
	rev  string
}

// resolve maps edit_file's absolute path to a workspace path.
func (s *Session) resolve(p string) (rel, abs string, err error) {
	rel, err = s.fs.Rel(p)
	if err != nil {
		return "", "", fault.Wrap(fault.BadArgument, err, "file_path")
	}
	if _, err = s.fs.Abs(rel); err != nil {
		return "", "", fault.Wrap(fault.BadArgument, err, "file_path")
	}
	return rel, p, nil
}

// load reads and parses a file.
func (s *Session) load(p string) (*file, error) {
	rel, abs, err := s.resolve(p)
	if err != nil {
		return nil, err
	}
	data, err := s.readFile(rel, abs)
	if err != nil {
		if fault.KindOf(err) == fault.Bounds {
			return nil, err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fault.Wrap(fault.NotFound, err, "%s does not exist; to create it use write_file", abs)
		}
		if st, serr := s.fs.Stat(rel); serr == nil && st.IsDir() {
			// rootfs's hint (a glob) is for plans; edit_file takes one file.
			return nil, fault.New(fault.BadArgument, "%s is a directory: give the absolute path of one file", abs)
		}
		return nil, fault.Wrap(fault.IO, err, "%s", abs)
	}
	doc, rev, err := s.parse(rel, data)
	if err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "%s cannot be edited", abs)
	}
	return &file{rel: rel, abs: abs, data: data, doc: doc, rev: rev}, nil
}

// markSeen records that the session saw rev of path.
func (s *Session) markSeen(rel, rev string) {
	s.mu.Lock()
	s.seen[rel] = rev
	s.mu.Unlock()
}

// checkRead enforces "read this turn": the session must have seen the
// file's current revision, or the caller passes it as revision.
func (s *Session) checkRead(f *file, given string) error {
	if given != "" {
		if given != f.rev {
			return fault.New(fault.Conflict, "%s changed since revision %s: it is now at %s. View it again and redo the edit on what is there now", f.abs, given, f.rev)
		}
		return nil
	}
	s.mu.Lock()
	seen, ok := s.seen[f.rel]
	s.mu.Unlock()
	switch {
	case !ok:
		return fault.New(fault.Conflict, "read %s before editing it: view it first (edit_file's view command), or pass its current revision", f.abs)
	case seen != f.rev:
		return fault.New(fault.Conflict, "%s changed since you read it (you saw %s, it is now %s): view it again before editing", f.abs, seen, f.rev)
	}
	return nil
}

// checkWorkspace refuses a file that the session's workspace changed.
func (s *Session) checkWorkspace(f *file) error {
	if s.ws == nil {
		return nil
	}
	if what, dirty := s.ws.Pending(f.rel); dirty {
		return fault.New(fault.Conflict, "%s has unwritten changes in this session's workspace (%s): write or discard them first, then edit the file", f.abs, what)
	}
	return nil
}

// commit writes data, whose revision is next.rev, to f's path if the disk
// still holds what was loaded, records the undo entry and the new
// revision, and refreshes the workspace with next.doc (data's Doc; nil:
// parsed from data). Unless force, a read-only file is refused. after
// reports that the disk no longer held data right after the write (see
// [Result.ChangedAfterWrite]).
func (s *Session) commit(f *file, data []byte, next revEntry, force bool) (rev string, after bool, err error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.checkWritable(f.rel, force); err != nil {
		return "", false, err
	}
	// The disk must still hold what was loaded: checked again right
	// before the rename that replaces the file.
	unchanged := func(cur []byte, exists bool) error {
		switch {
		case !exists && f.data != nil:
			return fault.New(fault.Conflict, "%s was deleted while the edit was being made; nothing was written", f.abs)
		case exists && f.data == nil:
			return fault.New(fault.Conflict, "%s was created by someone else while the edit was being made (it is now %s); nothing was written: view it first", f.abs, text.Revision(cur))
		case exists && !bytes.Equal(cur, f.data):
			return fault.New(fault.Conflict, "%s changed on disk while the edit was being made (it was %s, it is now %s); nothing was written: view it again", f.abs, f.rev, text.Revision(cur))
		}
		return nil
	}
	if err := s.fs.WriteFileIf(f.rel, data, unchanged); err != nil {
		if fault.KindOf(err) == fault.Conflict {
			return "", false, err
		}
		return "", false, fault.Wrap(fault.IO, err, "writing %s; nothing was written", f.abs)
	}
	if s.bases != nil {
		s.bases.RecordBase(f.rel, f.data)
	}
	rev = next.rev
	after = s.changedSince(f.rel, data)
	if next.doc == nil {
		next.doc, _ = text.Parse(data)
	}
	next.rel = f.rel
	s.mu.Lock()
	s.revs.put(next)
	stack := append(s.undo[f.rel], undoEntry{before: f.data, after: rev})
	if len(stack) > UndoDepth {
		if s.dropped == nil {
			s.dropped = map[string]int{}
		}
		s.dropped[f.rel] += len(stack) - UndoDepth
		stack = stack[len(stack)-UndoDepth:]
	}
	s.undo[f.rel] = stack
	s.seen[f.rel] = rev
	s.mu.Unlock()
	s.refresh(f.rel, data, next.doc)
	return rev, after, nil
}

// changedSince reports whether the disk no longer holds data at rel,
// which this session just wrote: an outside process changed it.
func (s *Session) changedSince(rel string, data []byte) bool {
	cur, err := s.readFile(rel, rel)
	return err != nil || !bytes.Equal(cur, data)
}

// refresh tells the workspace that rel now holds data on disk, whose Doc
// is doc (nil: parsed from data).
func (s *Session) refresh(rel string, data []byte, doc *text.Doc) {
	if s.ws == nil || data == nil {
		return
	}
	if doc == nil {
		var err error
		if doc, err = text.Parse(data); err != nil {
			return
		}
	}
	mode := fs.FileMode(0o644)
	if st, err := s.fs.Stat(rel); err == nil {
		mode = st.Mode().Perm()
	}
	s.ws.Refresh(rel, doc, mode)
}

// Call runs one edit_file call given as JSON parameters.
func (s *Session) Call(ctx context.Context, params []byte) (*Result, error) {
	p, err := parseParams(params)
	if err != nil {
		return nil, err
	}
	return s.Do(ctx, p)
}

// Do runs one edit_file call.
func (s *Session) Do(ctx context.Context, p *Params) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Do is also called directly, without parseParams.
	if err := check(paramsSpec, p, "edit_file"); err != nil {
		return nil, err
	}
	switch p.Command {
	case "view":
		return s.view(p)
	case "undo_edit":
		return s.undoEdit(p)
	}
	f, err := s.load(p.FilePath)
	if err != nil {
		return nil, err
	}
	if err := s.checkWorkspace(f); err != nil {
		return nil, err
	}
	if err := s.checkRead(f, p.Revision); err != nil {
		return nil, err
	}
	var ed *edit
	switch p.Command {
	case "str_replace":
		ed, err = strReplace(f, p)
	case "insert":
		ed, err = insert(f, p)
	case "patch":
		ed, err = applyPatch(f, p)
	case "replace_symbol":
		ed, err = replaceSymbol(f, p)
	default:
		err = fault.New(fault.BadArgument, "edit_file: unknown command %q: use one of %s", p.Command, strings.Join(Commands, ", "))
	}
	if err != nil {
		return nil, err
	}
	return s.finish(f, p, ed)
}

func (f *file) String() string { return fmt.Sprintf("%s@%s", f.abs, f.rev) }

// checkWritable refuses, unless force, a file without write permission
// for its owner.
func (s *Session) checkWritable(rel string, force bool) error {
	if force {
		return nil
	}
	if err := s.fs.CheckWritable(rel); err != nil {
		return fault.Wrap(fault.BadArgument, err, "nothing was written")
	}
	return nil
}
