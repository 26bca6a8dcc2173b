package main

// This file builds the candidates: devbroker from this module, gopls at
// the version this module pins (its tool dependency), and agent-lsp from
// its public source with the Go toolchain, or skips agent-lsp with a
// message saying why.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/devbroker/devbroker/bench/internal/gobuild"
)

// agentLSPModule is agent-lsp's command, for go install.
const agentLSPModule = "github.com/blackwell-systems/agent-lsp/cmd/agent-lsp"

// tools are the built binaries and their versions.
type tools struct {
	bin          string // the directory of the binaries, first on every child's PATH
	devbroker    string
	baseline     string // another devbroker binary, or ""
	gopls        string
	agentLSP     string // "" when skipped
	agentLSPSkip string // why it was skipped
}

// env is the environment of every server: the built gopls first on PATH,
// so that devbroker and agent-lsp run the same gopls as gopls mcp.
func (t *tools) env(extra ...string) []string {
	return append(os.Environ(), append([]string{"PATH=" + t.bin + string(os.PathListSeparator) + os.Getenv("PATH")}, extra...)...)
}

func buildTools(ctx context.Context, tmp string, o options, res *results) (*tools, error) {
	var err error
	t := &tools{bin: filepath.Join(tmp, "bin")}
	t.devbroker, t.gopls = filepath.Join(t.bin, "devbroker"), filepath.Join(t.bin, "gopls")
	logf("building devbroker and the pinned gopls")
	if err = gobuild.Build(ctx, "", t.devbroker, "./cmd/devbroker"); err != nil {
		return nil, fmt.Errorf("building devbroker (run peerbench from the repository's root): %w", err)
	}
	if err := gobuild.Build(ctx, "", t.gopls, "golang.org/x/tools/gopls"); err != nil {
		return nil, fmt.Errorf("building gopls from this module's tool dependency: %w", err)
	}
	res.versions = append(res.versions,
		"devbroker: "+gobuild.FirstLine(gobuild.Output(ctx, "", "git", "describe", "--always", "--dirty"))+" (this checkout)",
		"gopls: "+gobuild.FirstLine(gobuild.Output(ctx, "", t.gopls, "version"))+" (built from go.mod's tool dependency; devbroker and agent-lsp run it too)")
	if o.baseline != "" {
		if t.baseline, err = filepath.Abs(o.baseline); err != nil {
			return nil, err
		}
		if _, err := os.Stat(t.baseline); err != nil {
			return nil, fmt.Errorf("-baseline: %w", err)
		}
		res.versions = append(res.versions, "baseline devbroker: "+o.baseline+" (measured on the disk path and, with -sessions, serving sessions of its own)")
	}
	switch {
	case !o.agentLSP:
		t.agentLSPSkip = "not measured (-agent-lsp=false)"
	case o.agentLSPSrc != "":
		if err := t.buildAgentLSP(ctx, tmp, o.agentLSPSrc, res); err != nil {
			return nil, fmt.Errorf("agent-lsp from %s: %w", o.agentLSPSrc, err)
		}
	case o.smoke:
		t.agentLSPSkip = "not built in a smoke run (give -agent-lsp-src)"
	default:
		t.installAgentLSP(ctx, res)
	}
	if t.agentLSP == "" {
		logf("agent-lsp skipped: %s", t.agentLSPSkip)
		res.versions = append(res.versions, "agent-lsp: skipped: "+t.agentLSPSkip)
	}
	return t, nil
}

// buildAgentLSP builds agent-lsp from src: a checkout (with go.mod), or a
// git directory without a work tree, whose HEAD is extracted first.
func (t *tools) buildAgentLSP(ctx context.Context, tmp, src string, res *results) error {
	dir, rev := src, ""
	if _, err := os.Stat(filepath.Join(src, "go.mod")); err != nil {
		dir = filepath.Join(tmp, "agent-lsp-src")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		logf("extracting agent-lsp's HEAD from %s", src)
		archive := exec.CommandContext(ctx, "sh", "-c", `git --git-dir="$1" archive HEAD | tar -x -C "$2"`, "sh", src, dir)
		if out, err := archive.CombinedOutput(); err != nil {
			return fmt.Errorf("neither a checkout (no go.mod) nor a git directory (git archive: %v: %s)", err, out)
		}
		rev = gobuild.FirstLine(gobuild.Output(ctx, "", "git", "--git-dir="+src, "describe", "--tags", "--always"))
	} else {
		rev = gobuild.FirstLine(gobuild.Output(ctx, src, "git", "describe", "--tags", "--always", "--dirty"))
	}
	logf("building agent-lsp (go build ./cmd/agent-lsp)")
	t.agentLSP = filepath.Join(t.bin, "agent-lsp")
	if err := gobuild.Build(ctx, dir, t.agentLSP, "./cmd/agent-lsp"); err != nil {
		return err
	}
	res.versions = append(res.versions, fmt.Sprintf("agent-lsp: %s (git %s), built with go build ./cmd/agent-lsp from %s",
		gobuild.FirstLine(gobuild.Output(ctx, "", t.agentLSP, "--version")), rev, src))
	return nil
}

// installAgentLSP tries go install …@latest into the bin directory; on
// failure agent-lsp is skipped, with the reason.
func (t *tools) installAgentLSP(ctx context.Context, res *results) {
	logf("trying go install %s@latest", agentLSPModule)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "install", agentLSPModule+"@latest")
	cmd.Env = append(os.Environ(), "GOBIN="+t.bin, "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.agentLSPSkip = fmt.Sprintf("go install %s@latest failed (%s); give a checkout with -agent-lsp-src", agentLSPModule, gobuild.FirstLine(string(out)))
		return
	}
	t.agentLSP = filepath.Join(t.bin, "agent-lsp")
	res.versions = append(res.versions, "agent-lsp: "+gobuild.FirstLine(gobuild.Output(ctx, "", t.agentLSP, "--version"))+" (go install …@latest)")
}
