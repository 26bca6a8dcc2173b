package broker

import (
	"os/exec"
	"strings"
	"testing"
)

// TestOnlyBrokerKnowsMCP enforces the design's layering: the MCP SDK and
// the wire surfaces are the broker's; the engine, the drivers, the
// language-server client and the configuration do not depend on them.
func TestOnlyBrokerKnowsMCP(t *testing.T) {
	for _, pkgs := range []string{"../engine/...", "../capabilities/...", "../lsp/...", "../configs/..."} {
		out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkgs).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkgs, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 5 {
			t.Fatalf("go list %s listed almost nothing: %v", pkgs, deps)
		}
		for _, dep := range deps {
			if strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk") || strings.HasPrefix(dep, "github.com/devbroker/devbroker/broker") {
				t.Errorf("%s depends on %s: only broker/ may know MCP and the editor wire format", pkgs, dep)
			}
		}
	}
}

// TestWireSpeaksNoProtocol keeps broker/wire what both surfaces can share:
// plain result types and their mapping, tied to neither MCP nor LSP.
func TestWireSpeaksNoProtocol(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./wire").Output()
	if err != nil {
		t.Fatalf("go list ./wire: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/modelcontextprotocol/", "go.lsp.dev/", "github.com/devbroker/devbroker/broker/mcp", "github.com/devbroker/devbroker/broker/editor"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("broker/wire depends on %s: it is shared by the MCP server and the editor endpoint and must speak neither protocol", dep)
			}
		}
	}
}
