package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWatcherBarrier is what every language-server request now pays
// before it is sent, so that changes made on disk before it are seen: one
// file created in the barrier directory and its event awaited, over a
// root of 200 watched directories.
func BenchmarkWatcherBarrier(b *testing.B) {
	if !watchable {
		b.Skip("no disk watcher on this platform")
	}
	root := b.TempDir()
	for i := range 200 {
		if err := os.MkdirAll(filepath.Join(root, fmt.Sprintf("d%03d", i)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	w, err := newWatcher(root, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer w.close()
	for b.Loop() {
		if err := w.barrier(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileCreateRemove is the floor under the barrier: creating and
// removing one empty file, with nobody waiting for its event.
func BenchmarkFileCreateRemove(b *testing.B) {
	dir := b.TempDir()
	name := filepath.Join(dir, "b")
	for b.Loop() {
		if err := os.WriteFile(name, nil, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.Remove(name); err != nil {
			b.Fatal(err)
		}
	}
}
