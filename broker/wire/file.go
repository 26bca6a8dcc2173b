package wire

// This file defines what edit_file, read_file and write_file answer, and
// the one shape of an error of a call that is not a plan step.

import (
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
)

// FileResult is the outcome of edit_file, read_file or write_file.
type FileResult struct {
	Path     string `json:"path" jsonschema:"the file's absolute path"`
	Text     string `json:"text" jsonschema:"what a model reads: numbered lines, a snippet of the edit or a diff, ending with the revision"`
	Revision string `json:"revision" jsonschema:"the file's revision after the call (the would-be revision of a dry run); pass it as revision to your next edit"`
	Diff     string `json:"diff,omitempty" jsonschema:"the unified diff of an edit or a dry run"`
	Changed  bool   `json:"changed" jsonschema:"whether the call wrote the file"`
	Replaced int    `json:"replaced,omitempty" jsonschema:"how many occurrences a str_replace with replace_all replaced (would replace, in a dry run)"`
	// ChangedAfterWrite: see editfile.Result.
	ChangedAfterWrite bool `json:"changed_after_write,omitempty" jsonschema:"the file was changed on disk by something outside the broker right after this call wrote it: view it again before editing it"`
}

// NewFileResult maps an editfile Result.
func NewFileResult(r *editfile.Result) *FileResult {
	return &FileResult{Path: r.Path, Text: r.Text, Revision: r.Revision, Diff: r.Diff, Changed: r.Changed, Replaced: r.Replaced, ChangedAfterWrite: r.ChangedAfterWrite}
}

// Error is the failure of a call that is not a plan's step: an edit_file
// call, a tool's arguments, a probe. Its fields are a [StepError]'s kind,
// message and retryable.
type Error struct {
	Kind      string `json:"kind" jsonschema:"bad_argument, not_found, ambiguous, no_match, conflict, bounds, unavailable, io, timeout or internal"`
	Message   string `json:"message" jsonschema:"what failed and what to do"`
	Retryable bool   `json:"retryable" jsonschema:"whether the identical call may succeed later; false means change the call"`
}

// NewError maps an error from the engine or the broker; its kind is
// fault.KindOf's.
func NewError(err error) *Error {
	return KindError(fault.KindOf(err), err.Error())
}

// KindError is the error of kind k with message msg.
func KindError(k fault.Kind, msg string) *Error {
	return &Error{Kind: string(k), Message: msg, Retryable: k.Retryable()}
}

// Failure is the answer of a call that failed: {"error": {...}}. edit_file
// and its siblings answer it in place of a [FileResult], and the MCP tools
// discard and probe in place of their results (MCP as structured content,
// which their output schemas admit beside the result; the CLI as a line);
// the editor endpoint sends the [Error] as its JSON-RPC error's data. A
// plan or step fails with a [DevResult] and its [StepError] instead.
type Failure struct {
	Error *Error `json:"error" jsonschema:"why the call failed"`
}
