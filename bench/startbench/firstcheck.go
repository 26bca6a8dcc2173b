package main

// This file measures the first correct check: from starting `devbroker
// serve --mcp` on a Go module with a type error to the check tool's answer
// that names it, against the same answer from a cold `gopls check` (a new
// gopls process on the same module; Go's caches stay warm for both).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// brokenModule is a small module whose main.go has one type error.
var brokenModule = map[string]string{
	"go.mod":  "module example.com/m\n\ngo 1.22\n",
	"main.go": "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\tprintln(n)\n}\n",
}

// wantDiag is text every correct answer names.
const wantDiag = "cannot use"

// firstCheckTarget is the bound: the first check within the
// gopls cold start plus 10 %.
const firstCheckTarget = 1.10

// firstChecks runs n interleaved pairs (devbroker, then gopls) after one
// unmeasured pair that warms the caches.
func firstChecks(bin, gopls, tmp string, n int) (db, gp *series, err error) {
	root := filepath.Join(tmp, "first-check")
	if err := modcache.WriteTree(root, brokenModule); err != nil {
		return nil, nil, err
	}
	cache := filepath.Join(tmp, "first-check-cache")
	db = &series{name: "devbroker: start → first check naming the error"}
	gp = &series{name: "gopls check (a new process)"}
	for i := range n + 1 {
		d, err := firstCheck(bin, root, cache, "main.go")
		if err != nil {
			return nil, nil, fmt.Errorf("devbroker first check: %w", err)
		}
		g, err := goplsCheck(gopls, root)
		if err != nil {
			return nil, nil, fmt.Errorf("gopls check: %w", err)
		}
		if i > 0 {
			db.samples = append(db.samples, d)
			gp.samples = append(gp.samples, g)
		}
	}
	return db, gp, nil
}

// firstCheck starts the server on root and calls check on file (relative
// to root) as soon as the tool is listed (waiting for tools/list_changed,
// not polling on a timer). The server's caches (the probe's, and gopls's
// own file cache, which gopls keeps under XDG_CACHE_HOME too) live in
// cacheHome.
func firstCheck(bin, root, cacheHome, file string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "serve", "--mcp", "--root", root, "--log-level", "error")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheHome)
	changed := make(chan struct{}, 16)
	c := sdk.NewClient(&sdk.Implementation{Name: "startbench", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	t0 := time.Now()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	for {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return 0, err
		}
		if slices.ContainsFunc(res.Tools, func(t *sdk.Tool) bool { return t.Name == "check" }) {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return 0, errors.New("check was never advertised")
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{file}}})
	if err != nil {
		return 0, err
	}
	d := time.Since(t0)
	return d, namesTheError(res)
}

// namesTheError checks that a tool's answer names the type error.
func namesTheError(res *sdk.CallToolResult) error {
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), wantDiag) {
		return fmt.Errorf("the answer does not name the error: %s", text.String())
	}
	return nil
}

// goplsCheck runs `gopls check main.go` in root and checks its answer.
func goplsCheck(gopls, root string) (time.Duration, error) {
	cmd := exec.Command(gopls, "check", "main.go")
	cmd.Dir = root
	t0 := time.Now()
	out, _ := cmd.CombinedOutput() // it exits non-zero when it reports
	d := time.Since(t0)
	if !strings.Contains(string(out), wantDiag) {
		return 0, fmt.Errorf("the answer does not name the error: %s", out)
	}
	return d, nil
}
