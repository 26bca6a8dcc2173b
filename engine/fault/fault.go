// Package fault defines the errors that devbroker's engine returns: an
// [Error] carries a [Kind] that callers (the plan runner, the wire layers)
// map to results and codes, and the message says what failed, where, and
// what to do instead.
package fault

import (
	"errors"
	"fmt"
)

// Kind classifies a failure. The values are the error kinds of a DevResult.
type Kind string

// The error kinds (docs/semantics.md, "Errors").
const (
	BadArgument Kind = "bad_argument" // the call is malformed; fix the arguments
	NotFound    Kind = "not_found"    // a path or symbol does not exist
	Ambiguous   Kind = "ambiguous"    // a match is not unique
	NoMatch     Kind = "no_match"     // a match was not found
	Conflict    Kind = "conflict"     // the disk or file changed since it was read
	Bounds      Kind = "bounds"       // a line range or a limit is exceeded
	Unavailable Kind = "unavailable"  // no capability serves the step; never retryable
	IO          Kind = "io"           // the filesystem failed
	Timeout     Kind = "timeout"      // a driver did not answer in time
	Internal    Kind = "internal"     // a bug in devbroker

	// The verdict kinds: a lint or check step fails on its answer.
	Diagnostics Kind = "diagnostics" // the answer has an error diagnostic; fix the code
	Crashed     Kind = "crashed"     // a driver crashed or failed to run
	Indexing    Kind = "indexing"    // a driver was still loading the workspace
	Unchecked   Kind = "unchecked"   // no working driver served some files; install one
)

// Retryable reports whether an identical call may succeed later without any
// change by the caller: io, timeout, crashed and indexing failures are.
func (k Kind) Retryable() bool {
	switch k {
	case IO, Timeout, Crashed, Indexing:
		return true
	}
	return false
}

// Incomplete reports whether k is the failure of a step whose answer a
// driver did not complete (timed out, crashed, still indexing, or files
// no working driver served): a tool failure, not a finding.
func (k Kind) Incomplete() bool {
	switch k {
	case Timeout, Crashed, Indexing, Unchecked:
		return true
	}
	return false
}

// Error is a classified failure.
type Error struct {
	Kind Kind
	Msg  string
	Err  error // the cause, if any
}

func (e *Error) Error() string {
	if e.Err != nil && e.Msg == "" {
		return e.Err.Error()
	}
	if e.Err != nil {
		return e.Msg + ": " + e.Err.Error()
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an Error of kind k with a formatted message.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...)}
}

// Wrap returns an Error of kind k with a message and a cause.
func Wrap(k Kind, err error, format string, args ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, args...), Err: err}
}

// KindOf returns the kind of the first [Error] in err's chain, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}
