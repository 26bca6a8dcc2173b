package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// A write that would overwrite, delete or move read-only files issues no
// disk operation and names every one with its mode; Force writes them and
// a written file keeps its mode.
func TestWriteReadOnly(t *testing.T) {
	root := testtree.New(t, map[string]string{"ro.txt": "a\n", "gone.txt": "g\n", "mv.txt": "m\n", "rw.txt": "w\n"})
	for _, p := range []string{"ro.txt", "gone.txt", "mv.txt"} {
		if err := os.Chmod(filepath.Join(root, p), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{}
	w := open(t, root, rec, "*.txt")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("ro.txt", doc("b\n")); err != nil {
			return err
		}
		if err := tx.Set("rw.txt", doc("x\n")); err != nil {
			return err
		}
		if err := tx.Delete("gone.txt"); err != nil {
			return err
		}
		return tx.Move("mv.txt", "moved.txt")
	})
	_, err := w.Write(context.Background(), nil)
	wantFault(t, err, fault.BadArgument, "gone.txt is read-only (mode 0444", "mv.txt is read-only (mode 0444", "ro.txt is read-only (mode 0444", `"force": true`)
	if !errors.Is(err, rootfs.ErrReadOnly) {
		t.Errorf("error %v does not wrap ErrReadOnly", err)
	}
	if len(rec.ops) != 0 {
		t.Fatalf("disk operations after a refusal: %v", rec.ops)
	}
	if _, err := w.WriteWith(context.Background(), nil, WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	wantMap(t, "disk", testtree.Read(t, root), map[string]string{"ro.txt": "b\n", "rw.txt": "x\n", "moved.txt": "m\n"})
	for _, p := range []string{"ro.txt", "moved.txt"} {
		if fi, err := os.Stat(filepath.Join(root, p)); err != nil || fi.Mode().Perm() != 0o444 {
			t.Errorf("%s: mode %v, %v; want 0444 kept", p, fi.Mode().Perm(), err)
		}
	}
}
