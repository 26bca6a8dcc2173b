package engine

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering enforces the design's first invariant: engine/ starts no
// process and speaks no protocol, so it must not depend on the packages
// that do (lsp/, capabilities/, broker/), directly or through others.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/devbroker/devbroker/"
	forbidden := []string{"lsp", "capabilities", "broker", "cmd"}
	for _, pkg := range strings.Fields(string(out)) {
		rest, ok := strings.CutPrefix(pkg, module)
		if !ok {
			continue
		}
		for _, f := range forbidden {
			if rest == f || strings.HasPrefix(rest, f+"/") {
				t.Errorf("engine/ depends on %s: the engine must reach drivers only through the Capabilities interface it defines, and must not know the wire layers", pkg)
			}
		}
	}
	// The check must see the engine's own packages, or it proves nothing.
	if !strings.Contains(string(out), module+"engine/workspace") {
		t.Fatalf("go list did not list engine/workspace; output:\n%s", out)
	}
}
