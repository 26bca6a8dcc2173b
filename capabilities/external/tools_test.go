package external

// Tests against the real tools that .ci/install-tools installs: shellcheck
// and prettier, and go itself.

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

func TestShellcheckWorkspaceOnly(t *testing.T) {
	root := t.TempDir()
	d := defaultDriver(t, "shellcheck", root)
	// Not on disk. "\t" and "é" before $1: json1 counts both as one
	// column, so $1 is at character 15.
	req := workspace(root, engine.Lint, "scripts/run.sh", "#!/bin/sh\nname=\"é\"\n\techo \"$name\" $1\n")
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	dg := one(t, r)
	if dg.Path != "scripts/run.sh" || dg.Code != "2086" || dg.Line != 3 || dg.Column != 15 || dg.EndLine != 3 || dg.EndColumn != 17 || dg.Severity != engine.SeverityInfo {
		t.Errorf("%+v", dg)
	}

	// The clean version is clean.
	req = workspace(root, engine.Lint, "scripts/run.sh", "#!/bin/sh\necho \"$1\"\n")
	r = d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	if len(r.Diagnostics) != 0 {
		t.Errorf("%+v", r.Diagnostics)
	}
}

func TestPrettierFormats(t *testing.T) {
	root := t.TempDir()
	d := defaultDriver(t, "prettier", root)
	req := workspace(root, engine.Format,
		"web/app.js", "const a = {b:1,c:'é'}\nfunction f( x ){return x}\n",
		"data/x.json", "{\"a\":1,\"b\":[1,2],\n\"c\":{}}",
		"ok.json", "{ \"a\": 1 }\n",
	)
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	want := map[string]string{
		"web/app.js":  "const a = { b: 1, c: \"é\" };\nfunction f(x) {\n  return x;\n}\n",
		"data/x.json": "{ \"a\": 1, \"b\": [1, 2], \"c\": {} }\n",
	}
	if len(r.Edits) != len(want) {
		t.Errorf("edits for %v, want %v", sortedKeys(r.Edits), sortedKeys(want))
	}
	for p, w := range want {
		if got := r.Edits[p]; got == nil || got.String() != w {
			t.Errorf("%s:\n got %q\nwant %q", p, got, w)
		}
	}
}

func TestPrettierHonoursProjectConfigAndReportsSyntaxErrors(t *testing.T) {
	root := t.TempDir()
	// The project's .prettierrc is on disk; the file being formatted is not.
	if err := os.WriteFile(filepath.Join(root, ".prettierrc"), []byte(`{"semi": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d := defaultDriver(t, "prettier", root)
	r := d.Run(context.Background(), workspace(root, engine.Format, "a.js", "let x = 1;\n"))
	wantStatus(t, r, engine.StatusOK)
	if got := r.Edits["a.js"]; got == nil || got.String() != "let x = 1\n" {
		t.Errorf("got %v", got)
	}

	r = d.Run(context.Background(), workspace(root, engine.Format, "src/b.js", "const é = {b:1\n"))
	wantStatus(t, r, engine.StatusOK)
	dg := one(t, r)
	if dg.Path != "src/b.js" || dg.Line != 2 || dg.Severity != engine.SeverityError || !strings.Contains(dg.Message, "SyntaxError") {
		t.Errorf("%+v", dg)
	}
	if len(r.Edits) != 0 {
		t.Errorf("a file with a syntax error was edited: %v", r.Edits)
	}
}

// goModule writes a module with a clean main.go to disk.
func goModule(t *testing.T) string {
	root := t.TempDir()
	for p, s := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"main.go":     "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
		"old/gone.go": "package old\n\nimport \"fmt\"\n\nfunc F() { fmt.Printf(\"%d\", \"x\") }\n",
	} {
		if err := capabilities.WriteAt(root, p, text.FromString(s)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// goRequest is the workspace of goModule with main.go changed to content,
// old/gone.go deleted, and extra files added.
func goRequest(root string, kind engine.Kind, content string, extra ...string) *capabilities.Request {
	req := workspace(root, kind, append([]string{"main.go", content}, extra...)...)
	req.All["go.mod"] = text.FromString("module example.com/m\n\ngo 1.22\n")
	req.Deleted = []string{"old/gone.go"}
	return req
}

func TestGoVetOverlay(t *testing.T) {
	root := goModule(t)
	d := defaultDriver(t, "go-vet", root)

	// On disk, old/gone.go has a vet finding; in the workspace it is
	// deleted, and main.go has one (after "é", so bytes differ from
	// characters), and a new file has another. (A new file in a new
	// directory would not do: go vet cannot chdir into it, Go 1.26.)
	changed := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Printf(\"é %d\\n\", \"x\")\n}\n"
	req := goRequest(root, engine.Lint, changed,
		"extra.go", "package main\n\nimport \"fmt\"\n\nfunc g() { fmt.Printf(\"%s\") }\n")
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	if len(r.Diagnostics) != 2 {
		t.Fatalf("%+v", r.Diagnostics)
	}
	engine.SortDiagnostics(r.Diagnostics)
	n, m := r.Diagnostics[0], r.Diagnostics[1] // by path
	if m.Path != "main.go" || m.Line != 6 || m.Column != 16 || !strings.Contains(m.Message, "wrong type string") {
		t.Errorf("main.go: %+v", m)
	}
	if n.Path != "extra.go" || n.Line != 5 || !strings.Contains(n.Message, "reads arg #1") {
		t.Errorf("extra.go: %+v", n)
	}

	// The disk's main.go is clean and old/gone.go is still deleted.
	req = goRequest(root, engine.Lint, "package main\n\nfunc main() {}\n")
	r = d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	if len(r.Diagnostics) != 0 {
		t.Errorf("%+v", r.Diagnostics)
	}
}

func TestGoBuildOverlay(t *testing.T) {
	root := goModule(t)
	d := defaultDriver(t, "go-build", root)
	req := goRequest(root, engine.Check, "package main\n\nfunc main() {\n\tvar é int = \"s\"\n\t_ = é\n}\n")
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	dg := one(t, r)
	if dg.Path != "main.go" || dg.Line != 4 || dg.Column != 14 || dg.Severity != engine.SeverityError {
		t.Errorf("%+v", dg)
	}
	if _, err := os.Stat(filepath.Join(root, "m")); err == nil {
		t.Error("go build wrote a binary into the root")
	}
}

func TestProbe(t *testing.T) {
	t.Run("missing", func(t *testing.T) {
		d, err := New("x", &configs.Driver{Command: []string{"devbroker-no-such-tool"}, Input: "stdin", Errorformat: efm, Install: "apt-get install devbroker-no-such-tool"}, envFor(t))
		if err != nil {
			t.Fatal(err)
		}
		p := d.Probe(context.Background())
		if p.State != capabilities.Missing || !strings.Contains(p.Reason, "apt-get install devbroker-no-such-tool") {
			t.Errorf("%+v", p)
		}
	})
	t.Run("found", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", Output: "stdout", Smoke: &configs.Smoke{File: "s.txt", Content: "abc\n"}}, "upper")
		d.cfg.VersionCommand = []string{d.cfg.Command[0], "version"}
		p := d.Probe(context.Background())
		if p.State != capabilities.Found || p.Version != "fake-tool 1.2.3" || p.Path != d.cfg.Command[0] || p.Took <= 0 {
			t.Errorf("%+v", p)
		}
	})
	t.Run("smoke crashes", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm, Smoke: &configs.Smoke{File: "s.sh", Content: "echo\n"}}, "exit", "2", "internal error")
		p := d.Probe(context.Background())
		if p.State != capabilities.Failed || !strings.Contains(p.Reason, "internal error") {
			t.Errorf("%+v", p)
		}
	})
	t.Run("real tools", func(t *testing.T) {
		for _, name := range []string{"shellcheck", "prettier", "go-vet"} {
			p := defaultDriver(t, name, t.TempDir()).Probe(context.Background())
			if p.State != capabilities.Found || !strings.ContainsAny(p.Version, "0123456789") {
				t.Errorf("%s: %+v", name, p)
			}
		}
	})
}

// TestDefaultsBuild builds every external driver of the defaults.
func TestDefaultsBuild(t *testing.T) {
	cfg := defaults(t)
	n := 0
	for name, dc := range cfg.Drivers {
		if dc.Type != Type.Name {
			continue
		}
		n++
		d, err := New(name, dc, capabilities.Env{Root: t.TempDir()})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if dc.Doc == "" || len(dc.VersionCommand) == 0 || dc.Install == "" {
			t.Errorf("%s lacks doc, version_command or install", name)
		}
		if len(d.Spec().Kinds) == 0 {
			t.Errorf("%s has no kinds", name)
		}
	}
	if n < 10 {
		t.Errorf("only %d external drivers in the defaults", n)
	}
	// Every language's drivers exist and can do what the language asks.
	for ln, l := range cfg.Languages {
		for kind, names := range map[engine.Kind][]string{engine.Format: l.Format, engine.Lint: l.Lint, engine.Check: l.Check} {
			var all []string
			for _, e := range names {
				slot, err := configs.ParseSlot(e)
				if err != nil {
					t.Errorf("language %s: %v", ln, err)
				}
				all = append(all, slot.Drivers()...)
			}
			for _, dn := range all {
				dc := cfg.Drivers[dn]
				if dc == nil {
					t.Errorf("language %s: no driver %s", ln, dn)
					continue
				}
				if dc.Type != Type.Name {
					continue
				}
				d, _ := New(dn, dc, capabilities.Env{})
				if d != nil && !containsKind(d.Spec().Kinds, kind) {
					t.Errorf("language %s: %s cannot %s", ln, dn, kind)
				}
			}
		}
	}
}

func containsKind(ks []engine.Kind, k engine.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
