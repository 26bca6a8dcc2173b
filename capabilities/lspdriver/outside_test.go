package lspdriver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// secretMarker is in the files outside the root only; no answer may
// contain it.
const secretMarker = "ZQXSECRET"

// outsideWorkspace is a module whose leak.go is a symlink to a file
// outside the root holding secret, and whose main.go uses what a Go
// secret would declare.
func outsideWorkspace(t *testing.T, secret string) (string, map[string]*text.Doc) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.go"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside/secret.go", filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package m\n\nvar _ int = Exposed\n\nfunc F() int {\n\tx := 1\n\treturn x\n}\n",
	}
	all := map[string]*text.Doc{}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		all[p] = text.FromString(c)
	}
	return root, all
}

// secrets are contents of the outside file: a parse error quoting the
// marker, a foreign package name, and a declaration whose type a type
// error in main.go would name.
var secrets = map[string]string{
	"parse error":     secretMarker + " is not Go\n",
	"package clause":  "package " + strings.ToLower(secretMarker) + "\n\nvar Exposed = 1\n",
	"quoted in other": "package m\n\ntype " + secretMarker + " struct{}\n\nvar Exposed " + secretMarker + "\n",
}

// TestNothingFromOutsideTheRoot: gopls never shows what it would read
// through a symlink leaving the root, neither as leak.go's diagnostics nor
// quoted in another file's, in check, lint or format.
func TestNothingFromOutsideTheRoot(t *testing.T) {
	gopls := goplsPath(t)
	for name, secret := range secrets {
		t.Run(name, func(t *testing.T) {
			root, all := outsideWorkspace(t, secret)
			d := driver(t, &configs.Driver{Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(t)}, root)
			ctx := context.Background()
			for _, kind := range []engine.Kind{engine.Check, engine.Lint, engine.Format, engine.Check} {
				res := d.Run(ctx, &capabilities.Request{Kind: kind, Root: root, Files: []string{"main.go"}, All: all})
				if res.Status != engine.StatusOK {
					t.Fatalf("%s: status %s: %s", kind, res.Status, res.Message)
				}
				if strings.Contains(strings.ToLower(res.Message), strings.ToLower(secretMarker)) {
					t.Errorf("%s: the message quotes the outside file: %s", kind, res.Message)
				}
				for _, dg := range res.Diagnostics {
					t.Logf("%s: %+v", kind, dg)
					if dg.Path == "leak.go" || strings.Contains(strings.ToLower(dg.Message), strings.ToLower(secretMarker)) {
						t.Errorf("%s: a diagnostic shows the outside file: %+v", kind, dg)
					}
				}
				for p, doc := range res.Edits {
					if p == "leak.go" || strings.Contains(doc.Content(), secretMarker) {
						t.Errorf("%s: an edit shows the outside file: %s", kind, p)
					}
				}
			}
		})
	}
}

// TestNothingFromOutsideThroughADirectory: a directory symlink that leaves
// the root, imported by the module: no diagnostic of its files is relayed.
// (The broker does not follow the link to list the files it would have to
// hide, so what the importing file's own diagnostics say about the
// imported package's declarations is not covered.)
func TestNothingFromOutsideThroughADirectory(t *testing.T) {
	gopls := goplsPath(t)
	root, all := outsideWorkspace(t, "package m\n")
	if err := os.Remove(filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(filepath.Dir(root), "outside", "dir")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package sub\n\nvar Exposed int = "+secretMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside/dir", filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	all["main.go"] = text.FromString("package m\n\nimport \"example.com/m/sub\"\n\nvar _ int = sub.Exposed\n")
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(t)}, root)
	res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"main.go"}, All: all, Changed: []string{"main.go"}})
	for _, dg := range res.Diagnostics {
		t.Logf("%+v", dg)
		if strings.HasPrefix(dg.Path, "sub/") || strings.Contains(dg.Message, secretMarker) {
			t.Errorf("a diagnostic shows the outside directory: %+v", dg)
		}
	}
}

// TestNothingFromOutsideLinkedLater: a symlink leaving the root that
// appears while the server runs (the disk watcher, not a walk, tells the
// driver of it), in a new directory too, is hidden from the next check
// as one there from the start is; one removed again is no longer hidden.
func TestNothingFromOutsideLinkedLater(t *testing.T) {
	gopls := goplsPath(t)
	root, all := outsideWorkspace(t, secrets["package clause"])
	if err := os.Remove(filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(t)}, root)
	ctx := context.Background()
	check := func(when string, wantUndefined bool) {
		t.Helper()
		res := d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"main.go"}, All: all})
		if res.Status != engine.StatusOK {
			t.Fatalf("%s: status %s: %s", when, res.Status, res.Message)
		}
		undefined := false
		for _, dg := range res.Diagnostics {
			t.Logf("%s: %+v", when, dg)
			if dg.Path != "main.go" || strings.Contains(strings.ToLower(dg.Message), strings.ToLower(secretMarker)) {
				t.Errorf("%s: a diagnostic shows the outside file: %+v", when, dg)
			}
			undefined = undefined || strings.Contains(dg.Message, "undefined: Exposed")
		}
		if undefined != wantUndefined {
			t.Errorf("%s: main.go's Exposed undefined: %v, want %v", when, undefined, wantUndefined)
		}
	}
	check("before any link", true)
	outside := filepath.Join(filepath.Dir(root), "outside", "secret.go")
	if err := os.Symlink(outside, filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	// A new file of the package: gopls loads the package again, and
	// would list the link among its files.
	if err := os.WriteFile(filepath.Join(root, "extra.go"), []byte("package m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a link created", true)
	if err := os.MkdirAll(filepath.Join(root, "m2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "m2", "a.go"), []byte("package m2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "m2", "leak.go")); err != nil {
		t.Fatal(err)
	}
	check("a link in a new directory", true)
	// Inside the root, the same declarations are the module's own.
	if err := os.Remove(filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "own.go"), []byte("package m\n\nvar Exposed = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("the link replaced by a file of the module", false)
}
