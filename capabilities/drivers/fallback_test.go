package drivers

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine/testtree"

	"github.com/devbroker/devbroker/engine"
)

// With gopls unavailable, the default Go configuration checks with go
// build and go vet instead of leaving Go unchecked, over the workspace
// content (the broken call exists only in the workspace), and the answer
// says which driver served in place of gopls.
func TestGoCheckFallsBackToGoBuild(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root, set := loadTrusted(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc helper(a int) int { return a }\n\nfunc main() {\n\t_ = helper(1)\n}\n",
		// The project replaces the gopls driver with one whose program
		// does not exist: the probe finds it missing.
		".devbroker.toml": "[drivers.gopls]\ntype = \"lsp\"\ncommand = [\"devbroker-no-such-gopls\"]\ninstall = \"install gopls\"\n",
	})
	ctx := context.Background()
	if !set.Has(engine.Check) {
		t.Fatal("Has(check) = false: the go-build + go-vet alternative should serve")
	}
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := engine.ParsePlan([]byte(`{"paths": ["main.go"], "ops": [
		{"step": "edit", "args": {"path": "main.go", "edits": [{"find": "\t_ = helper(1)", "replace": "\t_ = helper(1, 2)"}]}},
		{"step": "check"},
		{"step": "write"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := eng.Run(ctx, plan)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" {
		t.Fatalf("result: ok=%v error=%+v, want a diagnostics failure", r.OK, r.Error)
	}
	found := false
	for _, d := range r.Diagnostics {
		if d.Path == "main.go" && d.Source == "go-build" && d.Severity == engine.SeverityError && strings.Contains(d.Message, "too many arguments in call to helper") {
			found = true
		}
	}
	if !found {
		t.Errorf("no go-build error for the broken call: %+v", r.Diagnostics)
	}
	var served []string
	for _, s := range r.Drivers {
		if s.Status != engine.StatusOK {
			t.Errorf("driver %s: %s: %s", s.Driver, s.Status, s.Message)
		}
		if strings.Contains(s.Message, "served go files in place of gopls (gopls is missing") {
			served = append(served, s.Driver)
		}
	}
	if strings.Join(served, ",") != "go-build,go-vet" {
		t.Errorf("drivers = %+v, want go-build and go-vet saying they served in place of gopls", r.Drivers)
	}
	if len(r.Written) != 0 {
		t.Errorf("written = %v after a failed check", r.Written)
	}
}

// A language whose only check driver is missing is unchecked, even when
// another language's check driver works: the answer is not ok and the
// status names the language and the install hint.
func TestLanguageWithMissingCheckerIsUnchecked(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root, set := loadTrusted(t, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"main.go":         "package main\n\nfunc main() {}\n",
		"app.py":          "x: int = 1\n",
		".devbroker.toml": "[drivers.pyright]\ntype = \"lsp\"\ncommand = [\"devbroker-no-such-pyright\"]\ninstall = \"npm install -g pyright\"\n",
	})
	ctx := context.Background()
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := engine.ParsePlan([]byte(`{"paths": ["app.py", "main.go"], "ops": [{"step": "check"}]}`))
	r := eng.Run(ctx, plan)
	if r.OK || r.Error == nil || r.Error.Kind != "unchecked" {
		t.Fatalf("result: ok=%v error=%+v, want an unchecked failure", r.OK, r.Error)
	}
	var un *engine.DriverStatus
	for i, s := range r.Drivers {
		if s.Status == engine.StatusUnchecked {
			un = &r.Drivers[i]
		}
	}
	if un == nil || un.Language != "python" || !strings.Contains(un.Message, "app.py") || !strings.Contains(un.Message, "install: npm install -g pyright") {
		t.Errorf("drivers = %+v, want python unchecked with the install hint", r.Drivers)
	}
}

// Every entry of Go's lint list answers: with go-vet's program missing
// (the project points it at a program that does not exist), staticcheck
// still lints and its findings are kept, but go-vet's entry is unchecked,
// so the answer is not ok and a plan's lint stops before the write.
func TestMissingSecondLinterIsUnchecked(t *testing.T) {
	root, set := loadTrusted(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc same(s string) bool { return s == s }\n\nfunc main() { println(same(\"a\")) }\n",
		// A project's table replaces the default one whole.
		".devbroker.toml": `[drivers.go-vet]
type = "external"
command = ["devbroker-no-such-go", "vet", "-overlay={overlay}", "./..."]
input = "overlay"
errorformat = ["%f:%l:%c: %m"]
install = "Go is needed: https://go.dev/doc/install"
`,
	})
	ctx := context.Background()
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := engine.ParsePlan([]byte(`{"paths": ["main.go"], "ops": [
		{"step": "edit", "args": {"path": "main.go", "edits": [{"find": "func main() { println(same(\"a\")) }", "replace": "func main() { println(same(\"b\")) }"}]}},
		{"step": "lint"},
		{"step": "write"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := eng.Run(ctx, plan)
	if r.OK || r.Error == nil || r.Error.Kind != "unchecked" {
		t.Fatalf("result: ok=%v error=%+v, want an unchecked failure", r.OK, r.Error)
	}
	if len(r.Written) != 0 {
		t.Errorf("written = %v after an incomplete lint", r.Written)
	}
	var got []string
	for _, s := range r.Drivers {
		got = append(got, s.Driver+": "+string(s.Status))
		if s.Status == engine.StatusUnchecked {
			for _, want := range []string{"1 go file not linted by go-vet (main.go)", "devbroker-no-such-go is not on PATH", "install: Go is needed"} {
				if s.Language != "go" || !strings.Contains(s.Message, want) {
					t.Errorf("unchecked status %+v does not say %q for go", s, want)
				}
			}
		}
	}
	if strings.Join(got, ", ") != "staticcheck: ok, go-vet: unchecked" {
		t.Errorf("drivers = %q, want staticcheck ok and go-vet unchecked", got)
	}
	found := false
	for _, d := range r.Diagnostics {
		found = found || d.Source == "staticcheck" && strings.Contains(d.Message, "identical expressions")
	}
	if !found {
		t.Errorf("diagnostics = %+v, want staticcheck's finding kept", r.Diagnostics)
	}
}

// loadTrusted writes files into a new root, trusts it (the projects of
// these tests name commands), and loads and probes its drivers, closed
// when the test ends.
func loadTrusted(t *testing.T, files map[string]string) (string, *capabilities.Set) {
	t.Helper()
	root := testtree.New(t, files)
	trustRoot(t, root)
	set, _, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	return root, set
}
