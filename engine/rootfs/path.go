package rootfs

import (
	"errors"
	"fmt"
	"strings"
)

// Clean validates a workspace path: slash-separated, relative to the root,
// without "..", "." or empty segments, NUL bytes, backslashes, drive letters
// or UNC prefixes. It returns p unchanged when it is valid; it never rewrites
// a path into a different one. Refusals are *[PathError] values wrapping
// [ErrOutsideRoot].
func Clean(p string) (string, error) {
	if err := check(p, false); err != nil {
		return "", err
	}
	return p, nil
}

// IsGlob reports whether p contains glob metacharacters (*, ?, [ or {), so
// that it must be expanded with [FS.Glob] rather than used as a literal path.
func IsGlob(p string) bool {
	return strings.ContainsAny(p, "*?[{")
}

// check is [Clean]'s rule set. A glob pattern may contain backslashes, which
// escape metacharacters there.
func check(p string, glob bool) *PathError {
	switch {
	case p == "":
		return refuse(p, `empty path; give a path relative to the root, such as "src/main.go"`)
	case strings.IndexByte(p, 0) >= 0:
		return refuse(p, "contains a NUL byte; remove it")
	case strings.HasPrefix(p, "//") || strings.HasPrefix(p, `\\`):
		return refuse(p, "UNC paths are not allowed; give a slash-separated path relative to the root")
	case hasDriveLetter(p):
		return refuse(p, "drive letters are not allowed; give a slash-separated path relative to the root")
	case strings.HasPrefix(p, "/"):
		return refuse(p, `absolute paths are not allowed; give a path relative to the root, such as "src/main.go"`)
	case !glob && strings.IndexByte(p, '\\') >= 0:
		return refuse(p, `backslashes are not allowed; separate directories with "/"`)
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "":
			return refuse(p, `empty path segment ("//" or a trailing "/"); give a path such as "dir/file"`)
		case ".":
			return refuse(p, `"." segments are not allowed; drop them (paths are already relative to the root)`)
		case "..":
			return refuse(p, `".." segments are not allowed; give a path relative to the root without ".."`)
		}
	}
	return nil
}

// hasDriveLetter reports whether p starts with a Windows drive ("C:", "c:/x",
// "C:foo").
func hasDriveLetter(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0] | 0x20 // lower case
	return 'a' <= c && c <= 'z'
}

// Bounds of a path that devbroker creates (a new file, a rename
// destination). Existing files are read whatever their depth; these keep a
// caller from making trees that every later walk pays for.
const (
	MaxNewDepth   = 64   // segments
	MaxNewPathLen = 1024 // bytes
	MaxSegmentLen = 255  // bytes of one segment (NAME_MAX on most systems)
)

// CheckNew validates p as [Clean] does and refuses a path deeper or longer
// than the bounds for created paths ([MaxNewDepth], [MaxNewPathLen],
// [MaxSegmentLen]), naming the bound.
func CheckNew(p string) error {
	if err := check(p, false); err != nil {
		return err
	}
	depth := strings.Count(p, "/") + 1
	switch {
	case depth > MaxNewDepth:
		return &PathError{Path: clip(p), Err: ErrTooDeep,
			Reason: fmt.Sprintf("is %d segments deep; a created path has at most %d: use a shallower path", depth, MaxNewDepth)}
	case len(p) > MaxNewPathLen:
		return &PathError{Path: clip(p), Err: ErrTooDeep,
			Reason: fmt.Sprintf("is %d bytes long; a created path has at most %d: use a shorter path", len(p), MaxNewPathLen)}
	}
	for seg := range strings.SplitSeq(p, "/") {
		if len(seg) > MaxSegmentLen {
			return &PathError{Path: clip(p), Err: ErrTooDeep,
				Reason: fmt.Sprintf("has a %d-byte segment; a segment has at most %d bytes: use a shorter name", len(seg), MaxSegmentLen)}
		}
	}
	return nil
}

// ErrTooDeep is wrapped by [CheckNew]'s refusals.
var ErrTooDeep = errors.New("path too deep or too long to create")

// clip shortens a long path for a message.
func clip(p string) string {
	const keep = 80
	if len(p) <= 2*keep {
		return p
	}
	return p[:keep] + "..." + p[len(p)-keep:]
}
