package external

// This file defines the answer of one request: a Result built from the
// runs of its command, with their failures and notes.

import (
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// answer is a Result being built from several runs.
type answer struct {
	capabilities.Result
	failures int
}

func newAnswer() *answer {
	return &answer{Result: capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}}}}
}

// fail records a failed run: the first failure sets the status, and the
// first few messages are kept.
func (a *answer) fail(st engine.Status, msg string) {
	a.failures++
	if a.Status == engine.StatusOK {
		a.Status = st
	}
	if a.failures > maxMessages {
		return
	}
	if a.Message != "" {
		a.Message += "\n"
	}
	a.Message += msg
}

// result is the finished Result.
func (a *answer) result() *capabilities.Result {
	if n := a.failures - maxMessages; n > 0 {
		a.Message += fmt.Sprintf("\n(and %d more failed runs)", n)
	}
	if len(a.Edits) == 0 {
		a.Edits = nil
	}
	return &a.Result
}

func crashed(err error) *capabilities.Result {
	return &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
}

// unlooked is the note on the requested files that {packages} left out
// when it left out every file of their run, so that an answer without
// their findings does not pass for a clean one.
func unlooked(driver string, paths []string) engine.Note {
	what := fmt.Sprintf("%d files (%s", len(paths), strings.Join(engine.FewPaths(paths), ", "))
	if n := len(paths) - engine.NotePaths; n > 0 {
		what += fmt.Sprintf(" and %d more", n)
	}
	what += "): they are"
	if len(paths) == 1 {
		what = paths[0] + ": it is"
	}
	return engine.Note{
		Kind: engine.NoteNotLooked, Driver: driver, Files: len(paths), Paths: engine.FewPaths(paths),
		Message: driver + " did not look at " + what + " in no package that ./... would list (a testdata, vendor, _ or . directory, another module, or build constraints that leave it out)",
	}
}
