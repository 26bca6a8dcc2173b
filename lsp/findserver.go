package lsp

// This file defines how devbroker finds a language server's binary
// ([FindServer]) and reads its version ([Version]). Besides the language
// servers, lsp starts only the go command (here `go env` and `go tool -n`;
// goinputs.go's `go env`, `go list -m` and `go build`) and a server's
// version command, each from an argv list and bounded in time
// (ARCHITECTURE.md, "Processes").
//
// FindServer resolves a command; first match wins:
//
//  1. the configured command, when it is not plain "gopls" (an absolute
//     path, or another server's name): looked up on PATH, and nothing
//     else;
//  2. "gopls" on PATH;
//  3. gopls where `go install` puts it: $GOBIN, else $GOPATH/bin (often
//     not on PATH);
//  4. the gopls that the root's own module declares as a tool (`tool
//     golang.org/x/tools/gopls` in go.mod): `go tool -n gopls`, run in the
//     root, builds it once into Go's build cache and prints its path,
//     which is then run directly (not through `go tool`, whose wrapper
//     process would stand between devbroker and the server's signals).
//
// Nothing is downloaded or installed: when none matches, the server is
// not installed. The error says where it was looked for, not how to
// install it: the driver adds its configured install hint, or for gopls
// [GoplsInstall].

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// FindServer resolves a language server's command (see the file comment)
// for root. It returns the absolute path of the binary and how it was
// found, or an error wrapping ErrNotInstalled. moduleTool allows gopls's
// last way, the gopls that root's go.mod declares as a tool: that is a
// binary the repository chooses (a replace directive can point it
// anywhere), so it is allowed only for a root the user trusts.
func FindServer(ctx context.Context, command, root string, moduleTool bool) (path, how string, err error) {
	if command != "gopls" {
		p, err := exec.LookPath(command)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s: %w", ErrNotInstalled, command, err)
		}
		return abs(p), "PATH", nil
	}
	if p, err := exec.LookPath("gopls"); err == nil {
		return abs(p), "PATH", nil
	}
	if p := goInstalled(ctx); p != "" {
		return p, "GOBIN", nil
	}
	if !moduleTool {
		return "", "", fmt.Errorf("%w: gopls is not on PATH nor in $GOBIN or $GOPATH/bin (a gopls that the root's go.mod declares as a tool is used only once you trust the root: devbroker trust %s)", ErrNotInstalled, root)
	}
	if p := goTool(ctx, root); p != "" {
		return p, "go tool (the module's tool dependency)", nil
	}
	return "", "", fmt.Errorf("%w: gopls is not on PATH, not in $GOBIN or $GOPATH/bin, and the module of the root (%s) does not declare it as a tool", ErrNotInstalled, root)
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// commandTimeout bounds `go env` and a version command. It only stops one
// that hangs, so it allows for a loaded machine.
const commandTimeout = time.Minute

// goEnv runs `go env name` (empty on any failure).
func goEnv(ctx context.Context, name string) string {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "env", name).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// goInstalled finds gopls where `go install` puts it.
func goInstalled(ctx context.Context) string {
	dir := goEnv(ctx, "GOBIN")
	if dir == "" {
		if gp := goEnv(ctx, "GOPATH"); gp != "" {
			dir = filepath.Join(filepath.SplitList(gp)[0], "bin")
		}
	}
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, "gopls")
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

// goTool asks the root's module for its gopls tool: `go tool -n gopls`
// builds it (once; Go caches it) and prints the binary's path.
func goTool(ctx context.Context, root string) string {
	if root == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "tool", "-n", "gopls")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(out))
	if fi, err := os.Stat(p); err != nil || fi.IsDir() {
		return ""
	}
	return p
}

// Version runs a server's version command (argv, such as
// ["/path/gopls", "version"]) and returns the first line it prints. A
// command that fails gives an error with the first line of its standard
// error.
func Version(ctx context.Context, argv []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	var stderr bytes.Buffer
	bin := argv[0]
	cmd := exec.CommandContext(ctx, bin, argv[1:]...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("%s version: no answer in %s; the server may hang: run it by hand to see why", bin, commandTimeout)
		}
		// The first line says why; what follows (a backtrace under
		// RUST_BACKTRACE=1) only buries it.
		why, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return "", fmt.Errorf("%s version: %w: %s", bin, err, strings.TrimSpace(why))
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line), nil
}
