package staticcheck

// This file defines what the staticcheck command does between its runner
// and its output, after lintcmd's directives.go and lint.go: the checks a
// package's staticcheck.conf selects, and the //lint:ignore and
// //lint:file-ignore directives that drop findings (reporting the
// directives that matched nothing).

import (
	"go/token"
	"path/filepath"
	"strings"
	"unicode"

	"honnef.co/go/tools/lintcmd/runner"
)

// allowedChecks resolves a package's check list ("all", "-SA4006", "S*",
// "SA1*") against the known checks, as the staticcheck command does.
func allowedChecks(all []string, selection []string) map[string]bool {
	allowed := map[string]bool{}
	for _, check := range selection {
		check = strings.ToLower(check)
		on := true
		if len(check) > 1 && check[0] == '-' {
			on = false
			check = check[1:]
		}
		switch {
		case check == "*" || check == "all":
			for _, a := range all {
				allowed[a] = on
			}
		case strings.HasSuffix(check, "*"):
			prefix := check[:len(check)-1]
			isCategory := strings.IndexFunc(prefix, unicode.IsNumber) == -1
			for _, a := range all {
				if isCategory {
					if idx := strings.IndexFunc(a, unicode.IsNumber); idx >= 0 && a[:idx] == prefix {
						allowed[a] = on
					}
				} else if strings.HasPrefix(a, prefix) {
					allowed[a] = on
				}
			}
		default:
			allowed[check] = on
		}
	}
	return allowed
}

// An ignore is a //lint:ignore (one line) or //lint:file-ignore directive.
type ignore struct {
	file    string
	line    int // 0 for file-ignore
	checks  []string
	pos     token.Position
	matched bool
}

func (ig *ignore) match(f finding) bool {
	if f.Position.Filename != ig.file || (ig.line != 0 && f.Position.Line != ig.line) {
		return false
	}
	cat := strings.ToLower(f.Category)
	for _, c := range ig.checks {
		if m, _ := filepath.Match(c, cat); m {
			ig.matched = true
			return true
		}
	}
	return false
}

// applyDirectives marks the findings that ignore directives silence and
// adds staticcheck's own findings about the directives: malformed ones and
// line ignores that matched nothing.
func applyDirectives(fs []finding, dirs []runner.SerializedDirective, allowed map[string]bool) []finding {
	var more []finding
	for _, dir := range dirs {
		if dir.Command != "ignore" && dir.Command != "file-ignore" {
			continue
		}
		if len(dir.Arguments) < 2 {
			more = append(more, finding{Diagnostic: runner.Diagnostic{
				Position: dir.NodePosition,
				Message:  "malformed linter directive; missing the required reason field?",
				Category: catCompile,
			}})
			continue
		}
		ig := &ignore{file: dir.NodePosition.Filename, pos: dir.DirectivePosition}
		if dir.Command == "ignore" {
			ig.line = dir.NodePosition.Line
		}
		for _, c := range strings.Split(dir.Arguments[0], ",") {
			ig.checks = append(ig.checks, strings.ToLower(c))
		}
		for i := range fs {
			if ig.match(fs[i]) {
				fs[i].ignored = true
			}
		}
		if ig.line != 0 && !ig.matched && couldHaveMatched(ig.checks, allowed) {
			more = append(more, finding{Diagnostic: runner.Diagnostic{
				Position: ig.pos,
				Message:  "this linter directive didn't match anything; should it be removed?",
				Category: catStaticcheck,
			}})
		}
	}
	return append(fs, more...)
}

// couldHaveMatched reports whether an unmatched line ignore is worth a
// finding: the first of its checks that is U1000 or selected decides.
// U1000 never is: whether it fires depends on which variants were
// analyzed.
func couldHaveMatched(checks []string, allowed map[string]bool) bool {
	for _, c := range checks {
		if c == "u1000" {
			return false
		}
		if allowed[c] {
			return true
		}
	}
	return false
}
