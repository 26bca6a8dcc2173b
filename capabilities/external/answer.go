package external

// This file defines the answer of one request: a Result built from the
// runs of its command, with their failures and notes.

import (
	"fmt"

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
	return &answer{Result: capabilities.Result{Status: engine.StatusOK, Edits: map[string]*text.Doc{}}}
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

// unlooked is the note on a requested file that {packages} left out when
// it left out every file of the run, so that an answer without its
// findings does not pass for a clean one.
func unlooked(driver, p string) engine.Diagnostic {
	return engine.Diagnostic{
		Path: p, Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: engine.SeverityInfo, Source: "devbroker",
		Message: driver + " did not look at this file: it is in no package that ./... would list (a testdata, vendor, _ or . directory, another module, or build constraints that leave it out)",
	}
}
