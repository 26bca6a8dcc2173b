package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// recorder records the disk operations of an FS and can fail one of them.
type recorder struct {
	ops    []string // "rename a -> b", "remove a", "write a"
	failAt int      // 1-based index of the operation to fail; 0 = none
	seen   int
}

func (r *recorder) hook(op, path, to string) error {
	r.seen++
	if r.failAt != 0 && r.seen == r.failAt {
		return fmt.Errorf("injected fault at op %d", r.seen)
	}
	switch op {
	case rootfs.OpRename:
		r.ops = append(r.ops, "rename "+path+" -> "+to)
	default:
		r.ops = append(r.ops, op+" "+path)
	}
	return nil
}

// open returns a workspace over root whose disk operations go to rec, with
// patterns acquired.
func open(t testing.TB, root string, rec *recorder, patterns ...string) *Workspace {
	t.Helper()
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	// Temporary names come from a seeded stream, so runs repeat.
	hooks := rootfs.Hooks{Rand: rand.NewChaCha8([32]byte{1})}
	if rec != nil {
		hooks.BeforeOp = rec.hook
	}
	fsys = fsys.WithHooks(hooks)
	w := New(fsys, Limits{})
	if len(patterns) > 0 {
		if _, err := w.Acquire(patterns); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// apply runs fn in a transaction and commits it.
func apply(t testing.TB, w *Workspace, fn func(*Txn) error) {
	t.Helper()
	tx := w.Begin()
	if err := fn(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// snapshot is the workspace's content (path → text).
func snapshot(w *Workspace) map[string]string {
	out := map[string]string{}
	for _, p := range w.Paths() {
		d, _ := w.Doc(p)
		out[p] = d.String()
	}
	return out
}

func doc(s string) *text.Doc { return text.FromString(s) }

// wantFault checks err's kind and that its message holds each substring.
func wantFault(t testing.TB, err error, kind fault.Kind, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %s error, got nil", kind)
	}
	if k := fault.KindOf(err); k != kind {
		t.Errorf("kind = %s, want %s (%v)", k, kind, err)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}

func wantMap(t testing.TB, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %q, want %q", what, got, want)
		return
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q, want %q", what, got, want)
			return
		}
	}
}

func wantList(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
		t.Errorf("%s =\n  %q\nwant\n  %q", what, got, want)
	}
}

func asWriteError(t testing.TB, err error) *WriteError {
	t.Helper()
	var we *WriteError
	if !errors.As(err, &we) {
		t.Fatalf("want a *WriteError, got %T: %v", err, err)
	}
	return we
}

// discardAll discards every unwritten change.
func discardAll(t testing.TB, w *Workspace) {
	t.Helper()
	if _, _, err := w.Discard(nil); err != nil {
		t.Fatal(err)
	}
}
