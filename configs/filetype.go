package configs

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MatchFileType reports whether the file at workspace path p (slash
// separated) matches pattern, one of a language's [Language.FileTypes]:
// matched against the base name, or, when the pattern holds a slash,
// against the whole path. It is the one rule, for routing and for the
// drivers that tell a server a file's language.
func MatchFileType(pattern, p string) bool {
	subject := path.Base(p)
	if strings.Contains(pattern, "/") {
		subject = p
	}
	ok, _ := doublestar.Match(pattern, subject)
	return ok
}
