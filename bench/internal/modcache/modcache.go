// Package modcache fetches the modules the benchmarks measure on and copies
// them where the benchmarks may change them.
package modcache

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Download returns the directory of module (path@version) in the module
// cache, downloading it when it is not there.
func Download(ctx context.Context, module string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "mod", "download", "-json", module).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %w", module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no directory in %s", module, out)
	}
	return m.Dir, nil
}

// Copy copies the tree src to dst with writable modes (the module
// cache's are read-only), leaving out .git and what is neither a
// directory nor a regular file (a user's module may hold symlinks).
func Copy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// AllowModUpdates lets the go commands the benchmarks start (and those
// that gopls and devbroker start for them) update go.mod and go.sum in a
// copy of a module from the cache, whose go.sum may lack entries for this
// toolchain: GOFLAGS gets -mod=mod unless it already sets -mod.
func AllowModUpdates() {
	if !strings.Contains(os.Getenv("GOFLAGS"), "-mod=") {
		os.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	}
}

// CopyResolved copies src to dst as Copy does, completes the copy's
// go.sum (CompleteSums), and returns dst with its symlinks resolved, as
// language servers report paths.
func CopyResolved(src, dst string) (string, error) {
	if err := Copy(src, dst); err != nil {
		return "", err
	}
	CompleteSums(dst)
	return filepath.EvalSymlinks(dst)
}

// CompleteSums runs in the module dir what gopls's imports cache refresh
// runs, go list -m -e -json ..., so that the go.sum entries it adds under
// -mod=mod (AllowModUpdates: the module graph's go.mod hashes, which a
// module's own go.sum may lack) are written now, before any server
// starts. gopls runs it 30 seconds after it starts: a go.sum written then
// makes each server load its whole workspace again, in the middle of the
// measurements (devbroker in its next answer; gopls mcp as its watcher
// reports the write). It does nothing without a go.mod; a failure leaves
// go.sum as it was (the servers' go commands meet the same failure).
func CompleteSums(dir string) {
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return
	}
	cmd := exec.Command("go", "list", "-m", "-e", "-json", "...")
	cmd.Dir = dir
	_ = cmd.Run()
}

// WriteTree writes files (contents by slash path) under root, making the
// directories they need.
func WriteTree(root string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Label names the module path in dir for a results file: path@version
// when dir is that version's directory in the module cache, else the
// path and the directory.
func Label(path, dir string) string {
	if base := filepath.Base(dir); strings.HasPrefix(base, filepath.Base(path)+"@") {
		return path + base[len(filepath.Base(path)):]
	}
	return path + " (" + dir + ")"
}
