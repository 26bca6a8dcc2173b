package lsp

// This file defines the tests' barrier on a disk watcher: the product
// waits for no watcher event (see watch.go).

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// barrierTimeout bounds the time the barrier waits while the event loop
// handles nothing: past it, the barrier's event is lost.
const barrierTimeout = 10 * time.Second

// barrier returns once every event of a change completed before it was
// called has been handled. It fails when the watcher broke, when the loop
// ended, or when the loop handled nothing for barrierTimeout: the wait has
// no fixed cap while the loop is busy (walking a large directory that
// appeared, say).
func (w *watcher) barrier(ctx context.Context) error {
	w.mu.Lock()
	if err := cmp.Or(w.err, w.broken); err != nil {
		w.mu.Unlock()
		return err
	}
	w.seq++
	name := filepath.Join(w.private, fmt.Sprintf("b%d", w.seq))
	ch := make(chan struct{})
	w.waiters[name] = ch
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.waiters, name)
		w.mu.Unlock()
		_ = os.Remove(name)
	}()
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return fmt.Errorf("the barrier: %w", err)
	}
	idle := time.NewTimer(barrierTimeout)
	defer idle.Stop()
	last := w.progress.Load()
	for {
		select {
		case <-ch:
			return nil
		case <-w.done:
			return w.err
		case <-ctx.Done():
			return ctx.Err()
		case <-idle.C:
			if n := w.progress.Load(); n != last {
				last = n
				idle.Reset(barrierTimeout)
				continue
			}
			return fmt.Errorf("the barrier's event did not arrive, and no event was handled for %s", barrierTimeout)
		}
	}
}
