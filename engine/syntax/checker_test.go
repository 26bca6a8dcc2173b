package syntax

import (
	"path/filepath"
	"strings"
)

// Checker reports the name of the check [Check] would run for filename, or
// "" when the file type is not recognized.
func Checker(filename string) string {
	if c := byExt[strings.ToLower(filepath.Ext(filename))]; c != nil {
		return c.name
	}
	return ""
}
