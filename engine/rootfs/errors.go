package rootfs

import (
	"errors"
	"fmt"
	"os"
)

// ErrOutsideRoot is wrapped by every refusal of a path that does not name a
// location inside the root: malformed workspace paths ([Clean]), absolute
// paths outside the root ([FS.Rel]), and symlinks that lead out of it
// ([FS.Abs]). Test with errors.Is.
var ErrOutsideRoot = errors.New("path is not inside the root")

// TooLargeError refuses a read of a file larger than the reader's limit
// ([FS.ReadFileMax]). The caller knows which setting the limit is, so
// its own error names it.
type TooLargeError struct {
	Path    string // the workspace path
	Size    int64  // the file's size in bytes
	Limit   int64  // the most bytes the read accepts
	AtLeast bool   // the file grew while being read: Size is a lower bound
}

func (e *TooLargeError) Error() string {
	if e.AtLeast {
		return fmt.Sprintf("read %q: the file grew while being read to more than %d bytes, over the limit of %d bytes", e.Path, e.Limit, e.Limit)
	}
	return fmt.Sprintf("read %q: the file is %d bytes, over the limit of %d bytes", e.Path, e.Size, e.Limit)
}

// PathError records a refused or failed operation on a workspace path.
//
// Error reads `path "a/../b": <reason>` for a path refused by [Clean], and
// `<op> "a.txt": <reason>` once an operation is known. The reason says why
// and what to do instead.
type PathError struct {
	Path   string // the workspace path (or host path, for [FS.Rel]) as given
	Op     string // "read", "stat", "write", "rename", "remove", "glob", ...; "" for plain validation
	Reason string // why, and what to do instead; falls back to Err's message
	Err    error  // the cause: ErrOutsideRoot, an fs error such as fs.ErrNotExist, ...
}

func (e *PathError) Error() string {
	op := e.Op
	if op == "" {
		op = "path"
	}
	reason := e.Reason
	if reason == "" {
		reason = causeText(e.Err)
	}
	return fmt.Sprintf("%s %q: %s", op, e.Path, reason)
}

// Unwrap returns the cause, so errors.Is(err, ErrOutsideRoot) and
// errors.Is(err, fs.ErrNotExist) work through a PathError.
func (e *PathError) Unwrap() error { return e.Err }

// causeText is the message of err without the host path that os errors carry
// ("open /abs/x: permission denied" becomes "permission denied").
func causeText(err error) string {
	if err == nil {
		return "failed"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// refuse returns a confinement refusal of path.
func refuse(path, reason string) *PathError {
	return &PathError{Path: path, Reason: reason, Err: ErrOutsideRoot}
}

// withOp sets the operation on a *PathError that has none yet, leaving other
// errors alone. It copies, so a shared error value is never mutated.
func withOp(err error, op string) error {
	var pe *PathError
	if errors.As(err, &pe) && pe.Op == "" {
		c := *pe
		c.Op = op
		return &c
	}
	return err
}

// ioError wraps an error from the os package for the workspace path rel,
// explaining the common cases.
func ioError(op, rel string, err error) *PathError {
	e := &PathError{Op: op, Path: rel, Err: err}
	switch {
	case errors.Is(err, os.ErrNotExist):
		e.Reason = "no such file or directory; check the path (workspace paths are relative to the root)"
	case errors.Is(err, os.ErrExist):
		e.Reason = "already exists"
	case errors.Is(err, os.ErrPermission):
		e.Reason = "permission denied"
	}
	return e
}
