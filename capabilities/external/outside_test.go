package external

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

// outsideSecrets are contents of a Go file outside the root: a parse error
// quoting the marker, a foreign package name, a declaration a type error
// in main.go would name.
var outsideSecrets = map[string]string{
	"parse error":     secretMarker + " is not Go\n",
	"package clause":  "package " + strings.ToLower(secretMarker) + "\n",
	"quoted in other": "package main\n\ntype " + secretMarker + " struct{}\n\nvar Exposed " + secretMarker + "\n",
}

// outsideModule is goModule with leak.go, a symlink to secret outside the
// root, and its request: main.go uses what a Go secret would declare.
func outsideModule(t *testing.T, kind engine.Kind, secret string) (string, *capabilities.Request) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	if err := os.MkdirAll(filepath.Join(base, "outside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "outside", "secret.go"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, s := range map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := capabilities.WriteAt(root, p, text.FromString(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside/secret.go", filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	req := workspace(root, kind, "main.go", "package main\n\nvar _ int = Exposed\n\nfunc main() {}\n")
	req.All["go.mod"] = text.FromString("module example.com/m\n\ngo 1.22\n")
	return root, req
}

// noSecret fails when r shows anything of the outside file.
func noSecret(t *testing.T, r *capabilities.Result) {
	t.Helper()
	lower := strings.ToLower(secretMarker)
	if strings.Contains(strings.ToLower(r.Message), lower) {
		t.Errorf("the message quotes the outside file: %s", r.Message)
	}
	for _, dg := range r.Diagnostics {
		t.Logf("%+v", dg)
		if dg.Path == "leak.go" || strings.Contains(strings.ToLower(dg.Message), lower) {
			t.Errorf("a diagnostic shows the outside file: %+v", dg)
		}
	}
	for p, doc := range r.Edits {
		if strings.Contains(strings.ToLower(doc.String()), lower) {
			t.Errorf("an edit of %s shows the outside file", p)
		}
	}
}

// TestGoOverlayHidesOutsideLinks: go vet and go build never read a file
// through a symlink that leaves the root: the overlay maps it away.
func TestGoOverlayHidesOutsideLinks(t *testing.T) {
	for _, name := range []string{"go-vet", "go-build"} {
		for what, secret := range outsideSecrets {
			t.Run(name+"/"+what, func(t *testing.T) {
				root, req := outsideModule(t, engine.Check, secret)
				r := defaultDriver(t, name, root).Run(context.Background(), req)
				noSecret(t, r)
				if r.Status == engine.StatusOK && len(r.Diagnostics) == 0 {
					t.Errorf("main.go's undefined name was not reported: %s", r.Message)
				}
			})
		}
	}
}

// TestStagedTreeHasNoOutsideLinks: a staged tree holds the workspace, not
// what a symlink leaving the root leads to.
func TestStagedTreeHasNoOutsideLinks(t *testing.T) {
	root, req := outsideModule(t, engine.Lint, outsideSecrets["parse error"])
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm, ExitCodes: configs.ExitCodes{OK: []int{0}, Findings: []int{1}}}, "read-all", "main.go")
	req.Root = root
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	noSecret(t, r)
	if len(r.Diagnostics) == 0 {
		t.Fatal("the tool read nothing: the test shows nothing")
	}
}

// TestDirThroughAnOutsideLinkIsRefused: the working directory a driver's
// dir names is resolved; through a symlink that leaves the root, nothing
// runs and the answer names the key and where it leads.
func TestDirThroughAnOutsideLinkIsRefused(t *testing.T) {
	root, req := outsideModule(t, engine.Lint, outsideSecrets["parse error"])
	if err := os.Symlink("../outside", filepath.Join(root, "tools")); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{"stdin", "overlay"} {
		t.Run(input, func(t *testing.T) {
			d := fakeDriver(t, configs.Driver{Input: input, Dir: "tools", Errorformat: efm, ExitCodes: configs.ExitCodes{OK: []int{0}, Findings: []int{1}}}, "read-all", "main.go")
			r := d.Run(context.Background(), req)
			noSecret(t, r)
			if r.Status == engine.StatusOK || !strings.Contains(r.Message, `"dir"`) || !strings.Contains(r.Message, filepath.Join(filepath.Dir(root), "outside")) {
				t.Errorf("status %s: %s", r.Status, r.Message)
			}
			if len(r.Diagnostics) != 0 {
				t.Errorf("the tool ran: %+v", r.Diagnostics)
			}
		})
	}
	// Inside the root, dir still works.
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := fakeDriver(t, configs.Driver{Input: "stdin", Dir: "sub", Errorformat: efm, ExitCodes: configs.ExitCodes{OK: []int{0}, Findings: []int{1}}}, "stdin-lines")
	wantStatus(t, d.Run(context.Background(), req), engine.StatusOK)
}

// TestReplaceOutsideIsNeverClean: a go.mod replace directive makes go
// build read a module outside the root. Its errors there are not shown,
// but the answer is not clean either: the root does not build. (go vet
// reports them as warnings, its default severity: they are dropped.)
func TestReplaceOutsideIsNeverClean(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	mod := "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../outside\n"
	main := "package main\n\nimport \"example.com/dep\"\n\nfunc main() { _ = dep.F() }\n"
	for p, s := range map[string]string{
		"outside/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"outside/dep.go": "package dep\n\nfunc F() int { return \"" + secretMarker + "\" }\n",
		"root/go.mod":    mod,
		"root/main.go":   main,
	} {
		if err := capabilities.WriteAt(base, p, text.FromString(s)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"go-build"} {
		t.Run(name, func(t *testing.T) {
			req := workspace(root, engine.Check, "main.go", main)
			req.All["go.mod"] = text.FromString(mod)
			r := defaultDriver(t, name, root).Run(context.Background(), req)
			noSecret(t, r)
			errs := 0
			for _, dg := range r.Diagnostics {
				if strings.Contains(dg.Path, "outside") || strings.HasPrefix(dg.Path, "..") {
					t.Errorf("a diagnostic names the file outside the root: %+v", dg)
				}
				if dg.Severity == engine.SeverityError {
					errs++
				}
			}
			if r.Status == engine.StatusOK && errs == 0 {
				t.Errorf("the answer is clean, but the root does not build: %s", r.Message)
			}
		})
	}
}
