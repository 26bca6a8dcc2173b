package main

// This file draws the progress of a long command (format, lint, check,
// run) on standard error, when it is a terminal and --quiet is not given:
// one status line, rewritten in place, naming the driver, its phase and
// where it stands ("gopls: Setting up workspace: Loading packages..."),
// and cleared before the command prints its answer. In a pipe, or with
// --quiet, nothing is drawn.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/devbroker/devbroker/engine"
)

// isTerminal reports whether w is a terminal; devbroker-tty (the tests)
// makes it true.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// quietFlag adds --quiet to fl.
func quietFlag(fl *flag.FlagSet) *bool {
	return fl.Bool("quiet", false, "draw no progress on standard error (there is none when it is not a terminal)")
}

// maxStatus bounds the status line, so that it fits a terminal's line
// and is rewritten in place.
const maxStatus = 120

// statusLine is the progress of one command, drawn on a terminal.
type statusLine struct {
	mu     sync.Mutex
	w      io.Writer
	cmd    string
	open   map[string]engine.Progress // the pieces of work in progress, by ID
	order  []string                   // their IDs, oldest first
	drawn  bool
	closed bool
}

// withProgress returns ctx with the command's progress drawn on stderr
// when it is a terminal and quiet is false; stop clears the line.
func withProgress(ctx context.Context, cmd string, stderr io.Writer, quiet bool) (context.Context, func()) {
	if quiet || !isTerminal(stderr) {
		return ctx, func() {}
	}
	s := &statusLine{w: stderr, cmd: cmd, open: map[string]engine.Progress{}}
	return engine.WithProgress(ctx, s.update), s.stop
}

func (s *statusLine) update(p engine.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if _, ok := s.open[p.ID]; !ok && !p.Done {
		s.order = append(s.order, p.ID)
	}
	if p.Done {
		delete(s.open, p.ID)
		for i, id := range s.order {
			if id == p.ID {
				s.order = append(s.order[:i:i], s.order[i+1:]...)
				break
			}
		}
	} else {
		s.open[p.ID] = p
	}
	if len(s.order) == 0 {
		s.clear()
		return
	}
	// The newest piece of work says the most: a driver's own progress
	// comes inside its phase.
	s.draw(status(s.cmd, s.open[s.order[len(s.order)-1]]))
}

// status is one piece of work as a line. A line too long is shortened in
// its middle: where the work stands, its percentage and the time it has
// taken, at the end, stay.
func status(cmd string, p engine.Progress) string {
	line := "devbroker " + cmd + ": " + p.String()
	r := []rune(line)
	if len(r) <= maxStatus {
		return line
	}
	var tail []rune
	if w := p.Where(); w != "" {
		tail = []rune(" (" + w + ")")
	}
	return string(r[:maxStatus-3-len(tail)]) + "..." + string(tail)
}

// draw rewrites the line: carriage return, erase to the end, the text.
func (s *statusLine) draw(line string) {
	fmt.Fprintf(s.w, "\r\x1b[K%s", line)
	s.drawn = true
}

func (s *statusLine) clear() {
	if s.drawn {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.drawn = false
	}
}

// stop clears the line; later events draw nothing.
func (s *statusLine) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	s.closed = true
}
