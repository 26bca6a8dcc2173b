package editfile

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// env is a session over a temporary root holding real files.
type env struct {
	t  *testing.T
	fs *rootfs.FS
	s  *Session
}

// newEnv writes files (workspace path → content) under a fresh root and
// starts a session without a workspace.
func newEnv(t *testing.T, files map[string]string) *env {
	t.Helper()
	return newEnvHooks(t, files, rootfs.Hooks{})
}

func newEnvHooks(t *testing.T, files map[string]string, h rootfs.Hooks) *env {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, files)
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	fsys = fsys.WithHooks(h)
	return &env{t: t, fs: fsys, s: NewSession(fsys, nil)}
}

// abs is the absolute path edit_file takes for a workspace path.
func (e *env) abs(rel string) string { return filepath.Join(e.fs.Root(), filepath.FromSlash(rel)) }

// disk returns a file's bytes on disk.
func (e *env) disk(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.abs(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// outside changes a file behind the session's back.
func (e *env) outside(rel, content string) {
	e.t.Helper()
	if err := os.WriteFile(e.abs(rel), []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// call runs one edit_file call; kv alternates parameter names and values,
// and file_path is rel made absolute.
func (e *env) call(command, rel string, kv ...any) (*Result, error) {
	e.t.Helper()
	m := map[string]any{"command": command, "file_path": e.abs(rel)}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	data, err := json.Marshal(m)
	if err != nil {
		e.t.Fatal(err)
	}
	return e.s.Call(context.Background(), data)
}

// ok is call that must succeed.
func (e *env) ok(command, rel string, kv ...any) *Result {
	e.t.Helper()
	r, err := e.call(command, rel, kv...)
	if err != nil {
		e.t.Fatalf("%s %s %v: %v", command, rel, kv, err)
	}
	return r
}

// fail is call that must fail with kind and a message containing each of
// want.
func (e *env) fail(kind fault.Kind, command, rel string, kv ...any) error {
	e.t.Helper()
	r, err := e.call(command, rel, kv...)
	if err == nil {
		e.t.Fatalf("%s %s %v: succeeded, want a %s error:\n%s", command, rel, kv, kind, r.Text)
	}
	if got := fault.KindOf(err); got != kind {
		e.t.Fatalf("%s %s %v: error kind %s, want %s: %v", command, rel, kv, got, kind, err)
	}
	return err
}

// view views a file whole, marking it read.
func (e *env) view(rel string) *Result {
	e.t.Helper()
	return e.ok("view", rel)
}

// tool runs a sibling tool with JSON parameters.
func (e *env) tool(name string, m map[string]any) (*Result, error) {
	e.t.Helper()
	data, err := json.Marshal(m)
	if err != nil {
		e.t.Fatal(err)
	}
	switch name {
	case "read_file":
		return e.s.ReadFile(context.Background(), data)
	case "write_file":
		return e.s.WriteFile(context.Background(), data)
	}
	e.t.Fatalf("unknown tool %s", name)
	return nil, nil
}

// undoDepth is the length of rel's undo stack.
func (e *env) undoDepth(rel string) int {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return len(e.s.undo[rel])
}

// contains fails unless err's message (or s) contains every want.
func contains(t *testing.T, got any, want ...string) {
	t.Helper()
	var s string
	switch v := got.(type) {
	case error:
		s = v.Error()
	case string:
		s = v
	case *Result:
		s = v.Text
	}
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Errorf("missing %q in:\n%s", w, s)
		}
	}
}

// rev is the revision of content.
func rev(content string) string { return text.Revision([]byte(content)) }

func udiffWhole(path, before, after string) string { return udiff.Unified(path, path, before, after) }
