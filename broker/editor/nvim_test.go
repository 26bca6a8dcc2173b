package editor_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine/testtree"
)

// TestNeovimPlugin drives editors/nvim in a headless Neovim against a real
// server process: the plugin syncs an unsaved buffer, runs a plan that
// edits the unsaved line, and applies the returned WorkspaceEdit to the
// buffer (undoably), while the disk keeps the file as it was.
//
// Then a plan on a Go file whose check fails (a type error, found by
// gopls, or go build where gopls is missing) must leave the buffer as it
// was, with the failure shown.
//
// The server is the real binary, `devbroker serve --stdio`, built onto
// PATH.
func TestNeovimPlugin(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (Debian: apt-get install neovim; make test installs it through .ci/install-tools)")
	}
	if testing.Short() {
		t.Skip("builds a binary and runs Neovim")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "devbroker"), "../../cmd/devbroker")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the server: %v\n%s", err, out)
	}
	const original = "first\nsecond\nthird\n"
	const goMain = "package main\n\nfunc helper(n int) int { return n }\n\nfunc main() {\n\tprintln(helper(1))\n}\n"
	root := testtree.New(t, map[string]string{"a.txt": original, "go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": goMain})
	outFile := filepath.Join(t.TempDir(), "out.txt")
	plugin, _ := filepath.Abs("../../editors/nvim")
	script, _ := filepath.Abs("testdata/nvim_test.lua")

	// A guard against a hang, not a measure: the server's first check
	// (gopls loading the module) can take long on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
		"--cmd", "set rtp+="+plugin, "-c", "luafile "+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"DEVBROKER_ROOT="+root, "DEVBROKER_FILE="+filepath.Join(root, "a.txt"), "DEVBROKER_GOFILE="+filepath.Join(root, "main.go"), "DEVBROKER_OUT="+outFile,
		"XDG_STATE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+configtest.Dir(t))
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("nvim did not finish: %s", out)
	}
	got, rerr := os.ReadFile(outFile)
	if rerr != nil {
		t.Fatalf("nvim wrote no output (%v): %v\n%s", err, rerr, out)
	}
	want := strings.Join([]string{
		"seen: unsaved line",
		"first",
		"agent line",
		"agent 😀 line 2",
		"third",
		"modified: true",
		"after undo: unsaved line",
		"failed plan: ok false, error diagnostics, edit false",
		"go buffer unchanged: true",
		"go buffer modified: false",
		"failure shown: true",
	}, "\n") + "\n"
	if string(got) != want {
		t.Errorf("buffer after the plan:\n%s\nwant:\n%s\nnvim output:\n%s", got, want, out)
	}
	if disk := testtree.Read(t, root); disk["a.txt"] != original || disk["main.go"] != goMain {
		t.Errorf("the broker changed the disk: %q", disk)
	}
}
