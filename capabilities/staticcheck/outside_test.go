package staticcheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// TestNothingFromOutsideTheRoot: the staged tree never holds what a
// symlink leaving the root leads to, so no finding, error or message shows
// it.
func TestNothingFromOutsideTheRoot(t *testing.T) {
	const marker = "ZQXSECRET"
	secrets := map[string]string{
		"parse error":     marker + " is not Go\n",
		"package clause":  "package " + strings.ToLower(marker) + "\n",
		"quoted in other": "package m\n\ntype " + marker + " struct{}\n\nvar Exposed " + marker + "\n",
		"finding":         deadIn("m", marker, ""),
	}
	d := newDriver(t)
	for _, link := range []string{"relative", "absolute"} {
		for _, disk := range []string{"changed", "as on disk"} {
			for what, secret := range secrets {
				t.Run(link+"/"+disk+"/"+what, func(t *testing.T) {
					outsideRun(t, d, marker, secret, link == "absolute", disk == "changed")
				})
			}
		}
	}
}

// outsideRun lints a module whose leak.go links to secret outside the
// root, and fails on any sign of marker. a.go refers to the secret's
// Exposed: changed in the workspace, or so on disk (which would not need
// the stage, but for the link).
func outsideRun(t *testing.T, d *Driver, marker, secret string, absolute, changed bool) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	src := clean + "\nvar _ int = Exposed\n"
	testtree.Write(t, base, map[string]string{"outside/secret.go": secret})
	disk := src
	if changed {
		disk = clean
	}
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": disk})
	target := "../outside/secret.go"
	if absolute {
		target = filepath.Join(base, "outside", "secret.go")
	}
	if err := os.Symlink(target, filepath.Join(root, "leak.go")); err != nil {
		t.Fatal(err)
	}
	all := docs(map[string]string{"a.go": src, "go.mod": goMod})
	req := &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a.go"}, All: all}
	if changed {
		req.Changed = []string{"a.go"}
	}
	r := d.Run(context.Background(), req)
	lower := strings.ToLower(marker)
	if strings.Contains(strings.ToLower(r.Message), lower) {
		t.Errorf("the message quotes the outside file: %s", r.Message)
	}
	undefined := false
	for _, dg := range r.Diagnostics {
		t.Logf("%+v", dg)
		if dg.Path == "leak.go" || strings.Contains(strings.ToLower(dg.Message), lower) || strings.Contains(dg.Message, "leak.go") {
			t.Errorf("a diagnostic shows the outside file: %+v", dg)
		}
		undefined = undefined || dg.Path == "a.go" && strings.Contains(dg.Message, "undefined: Exposed")
	}
	if !undefined {
		t.Errorf("a.go's undefined name was not reported (status %s: %s)", r.Status, r.Message)
	}
}

// TestReplaceOutsideTheRoot: a go.mod replace directive that points
// outside the root makes the Go command read a module there. Its compile
// errors must not be shown (path or message), yet the answer must not be
// clean: the code in the root does not build.
func TestReplaceOutsideTheRoot(t *testing.T) {
	const marker = "ZQXSECRET"
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	testtree.Write(t, base, map[string]string{
		"outside/go.mod": "module example.com/dep\n\ngo 1.22\n",
		"outside/dep.go": "package dep\n\nfunc F() int { return \"" + marker + "\" }\n",
	})
	mod := goMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../outside\n"
	main := "package m\n\nimport \"example.com/dep\"\n\n// G calls F.\nfunc G() int { return dep.F() }\n"
	testtree.Write(t, root, map[string]string{"go.mod": mod, "a.go": main})
	all := docs(map[string]string{"a.go": main, "go.mod": mod})
	r := newDriver(t).Run(context.Background(), &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a.go"}, All: all})
	errs := 0
	for _, dg := range r.Diagnostics {
		t.Logf("%+v", dg)
		if strings.Contains(dg.Message, marker) || strings.HasPrefix(dg.Path, "..") || strings.Contains(dg.Message, "outside/dep.go") {
			t.Errorf("a diagnostic shows the file outside the root: %+v", dg)
		}
		if dg.Severity == engine.SeverityError {
			errs++
		}
	}
	if errs == 0 && r.Status == engine.StatusOK {
		t.Errorf("the answer is clean (status %s), but the root's code does not build", r.Status)
	}
}
