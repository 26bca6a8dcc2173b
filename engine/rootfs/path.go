package rootfs

import (
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
