package lsp

// This file decides which server commands devbroker runs. A code action
// may come as a command the server runs itself; devbroker runs one only
// to capture the edit it asks the client to apply (workspace/applyEdit),
// which then goes through the workspace like any change. gopls also has
// commands that run the go command (go get, go mod tidy, go generate,
// vendoring, tests, govulncheck) and so change go.mod, go.sum and other
// files on disk behind the workspace, or change the server's own state
// for every session of the root (annotations, profiles). Of gopls's
// commands only those whose whole effect is an edit for the client run.
// pyright's (and basedpyright's) createtypestub writes stub files under
// the root itself (typings/), and restartserver restarts the shared
// server: neither runs. Other servers' commands (tsserver's, clangd's)
// apply their changes through the client and run.

import (
	"errors"
	"strings"
)

// goplsEditCommands are the gopls commands (gopls v0.23) whose only effect
// is a workspace/applyEdit request to the client.
var goplsEditCommands = map[string]bool{
	"gopls.apply_fix":           true,
	"gopls.add_import":          true,
	"gopls.change_signature":    true,
	"gopls.extract_to_new_file": true,
	"gopls.implement_interface": true,
	"gopls.modify_tags":         true,
	"gopls.move_type":           true,
}

// pyrightNotRun are the pyright and basedpyright commands (after the
// "pyright." or "basedpyright." prefix) that change the disk or the
// server's state themselves.
var pyrightNotRun = map[string]bool{
	"createtypestub": true,
	"restartserver":  true,
}

// ErrCommandNotRun is the error of an action whose command devbroker does
// not run (see [CommandRuns]).
var ErrCommandNotRun = errors.New("devbroker does not run this command: it would change files on disk (go.mod, go.sum, generated files, type stubs) or the language server's own state, not the workspace")

// CommandRuns reports whether devbroker runs the server command name to
// capture its edit.
func CommandRuns(name string) bool {
	if strings.HasPrefix(name, "gopls.") {
		return goplsEditCommands[name]
	}
	for _, prefix := range []string{"pyright.", "basedpyright."} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			return !pyrightNotRun[rest]
		}
	}
	return true
}

// actionRuns reports whether an action's command, if it has one, runs.
func actionRuns(a *CodeAction) bool {
	return a.Command == nil || CommandRuns(a.Command.Command)
}
