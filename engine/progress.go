package engine

// This file defines the progress hook: how work that takes a while (a
// driver's run, a language server loading its workspace) tells the
// surface that asked for it what is happening, without the engine or the
// drivers knowing who listens. A surface puts a [ProgressFunc] in the
// request's context ([WithProgress]); drivers call [ReportProgress] with
// that context. Nothing waits for a listener: without one, a report does
// nothing.

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Progress is one event of work in progress.
type Progress struct {
	// Driver names who reports: a driver ("gopls", "staticcheck").
	Driver string
	// ID tells one piece of work from another: the events of one piece
	// (its begin, reports and end) share it.
	ID string
	// Title says what the work is ("check", "Setting up workspace"); every
	// event of a piece carries it.
	Title string
	// Message says where it stands ("3 files", "Loading packages...").
	Message string
	// Percentage is how much is done, 0 to 100, or -1 when unknown.
	Percentage int
	// Done marks the piece's last event.
	Done bool
	// Elapsed is how long the work has gone on, when the reporter says
	// (a wait that gives no percentage still shows that it moves); 0
	// when it does not.
	Elapsed time.Duration
}

// ProgressFunc receives progress events. It is called from the goroutine
// doing the work, in order for one piece of work, and must not block long.
type ProgressFunc func(Progress)

type progressKey struct{}

// WithProgress returns ctx with f receiving the progress reported under
// it, after any receiver ctx already had.
func WithProgress(ctx context.Context, f ProgressFunc) context.Context {
	if outer, ok := ctx.Value(progressKey{}).(ProgressFunc); ok {
		inner := f
		f = func(p Progress) { outer(p); inner(p) }
	}
	return context.WithValue(ctx, progressKey{}, f)
}

// ReportProgress passes p to ctx's receivers; without one it does nothing.
func ReportProgress(ctx context.Context, p Progress) {
	if f, ok := ctx.Value(progressKey{}).(ProgressFunc); ok {
		f(p)
	}
}

// WantsProgress reports whether ctx has a receiver, so that a driver can
// skip the work of preparing events no one reads.
func WantsProgress(ctx context.Context) bool {
	_, ok := ctx.Value(progressKey{}).(ProgressFunc)
	return ok
}

// String is the event as one line, the same on every surface: "gopls:
// Setting up workspace: Loading packages... (40%, 1m5s)"; the last event
// of a piece of work ends in "(done)".
func (p Progress) String() string {
	s := p.Driver + ": " + p.Title
	if p.Message != "" {
		s += ": " + p.Message
	}
	if w := p.Where(); w != "" {
		s += " (" + w + ")"
	}
	return s
}

// Where is how far the work has come, as String ends it: "done", or its
// percentage and the time it has taken ("40%, 1m5s"), or "" when the
// event says neither.
func (p Progress) Where() string {
	var where []string
	switch {
	case p.Done:
		where = append(where, "done")
	case p.Percentage >= 0:
		where = append(where, strconv.Itoa(p.Percentage)+"%")
	}
	if e := p.Elapsed.Round(time.Second); e > 0 && !p.Done {
		where = append(where, e.String())
	}
	return strings.Join(where, ", ")
}
