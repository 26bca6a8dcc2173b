package configs

// This file defines [Error] and [ErrorList], the located problems that
// loading and validating a configuration reports.

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem in a configuration file, located as precisely as
// the file allows.
type Error struct {
	// File is the file's name as the loader reports it: ProjectFile for a
	// project's file, DefaultsName for the embedded defaults, or the name
	// given to Parse.
	File string
	// Line and Column are 1-based; 0 when unknown.
	Line, Column int
	// Field is the TOML path of the offending key ("drivers.shellcheck.timeout",
	// "languages.go.lint[0]"); "" when the problem is the file's syntax.
	Field string
	// Msg says what is wrong and, where it helps, what to write instead.
	Msg string
}

// Error formats the error as "file:line:column: field: message", leaving
// out the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	// One error, one line: a message quoting a value with a newline
	// (an errorformat pattern, say) must not break an ErrorList apart.
	b.WriteString(strings.ReplaceAll(e.Msg, "\n", `\n`))
	return b.String()
}

// ErrorList is every problem found in a configuration, in file and line
// order. Loading reports all semantic problems at once, so that a user
// fixes them in one pass.
type ErrorList []*Error

// Error lists the errors, one per line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Err returns nil for an empty list and the sorted list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return l
}
