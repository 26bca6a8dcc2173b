package lspdriver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
)

// TestPythonStubActionNotListed: pyright's "Create Type Stub" quick fix
// runs a command that writes stub files under the root (typings/) itself,
// behind the workspace: it is not listed, so it can be neither applied
// nor picked by a lint fix, and nothing is written.
func TestPythonStubActionNotListed(t *testing.T) {
	bin, err := exec.LookPath("pyright-langserver")
	if err != nil {
		t.Skip("no pyright-langserver on PATH (npm install -g pyright)")
	}
	root, all := tree(t, map[string]string{
		"venv/pyvenv.cfg": "home = /usr/bin\n",
		"venv/lib/python3.11/site-packages/stubless/__init__.py": "def f():\n    return 1\n",
		"pyrightconfig.json": `{"venvPath": ".", "venv": "venv", "reportMissingTypeStubs": "error"}` + "\n",
		"m.py":               "import stubless\n\nprint(stubless.f())\n",
	})
	d, err := lspdriver.Type.New("pyright", configtest.Driver(&configs.Driver{Type: "lsp", Command: []string{bin, "--stdio"}, LanguageID: "python"}), capabilities.Env{Root: root, Language: "python"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	res := ask(t, d, root, all, engine.CodeActions, engine.Query{Path: "m.py", Line: 1, Column: 8})
	for _, a := range res.Actions {
		if strings.Contains(a.Title, "Stub") {
			t.Errorf("listed: %+v", a)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "typings")); err == nil {
		t.Errorf("typings/ was written on disk")
	}
}
