package main

// This file measures the first correct check on a real module (the
// corpus: honnef.co/go/tools, copied from the module cache, with a type
// error added to one file): from starting `devbroker serve --mcp` to the
// check that names it, against the same answer from gopls's own MCP
// server (`gopls mcp`, its go_diagnostics tool). Both run with one
// XDG_CACHE_HOME, so gopls's file cache is as warm for one as for the
// other after the first, uncounted, pair.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// The corpus: staticcheck's module, which devbroker links in, so it is in
// the module cache; corpusFile is the file edited (113 files import its
// package).
const (
	corpusModule = "honnef.co/go/tools@v0.8.1"
	corpusFile   = "analysis/code/code.go"
	corpusError  = "\nvar _ int = \"devbroker-bench\"\n"
	// corpusTarget is the bound: devbroker's first check within
	// 1.2× gopls mcp's.
	corpusTarget = 1.20
)

// corpusChecks runs n interleaved rounds (devbroker, then gopls mcp, then
// the baseline devbroker binary when one is given) on a copy of the
// corpus, after one unmeasured round that warms the caches. The series
// are devbroker's, gopls mcp's and the baseline's.
func corpusChecks(bin, gopls, baseline, tmp string, n int) ([]*series, error) {
	root := filepath.Join(tmp, "corpus")
	if err := copyCorpus(root); err != nil {
		return nil, err
	}
	cache := filepath.Join(tmp, "corpus-cache")
	file := filepath.Join(root, filepath.FromSlash(corpusFile))
	out := []*series{
		{name: "devbroker: start → first check naming the error"},
		{name: "gopls mcp: start → first go_diagnostics naming it"},
	}
	runs := []func() (time.Duration, error){
		func() (time.Duration, error) { return firstCheck(bin, root, cache, corpusFile) },
		func() (time.Duration, error) { return goplsMCP(gopls, root, cache, file) },
	}
	if baseline != "" {
		out = append(out, &series{name: "baseline devbroker (" + filepath.Base(baseline) + ")"})
		runs = append(runs, func() (time.Duration, error) { return firstCheck(baseline, root, cache, corpusFile) })
	}
	for i := range n + 1 {
		line := fmt.Sprintf("startbench: corpus round %d:", i)
		for j, run := range runs {
			d, err := run()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", out[j].name, err)
			}
			line += " " + ms(d)
			if i > 0 {
				out[j].samples = append(out[j].samples, d)
			}
		}
		fmt.Fprintln(os.Stderr, line)
	}
	return out, nil
}

// copyCorpus copies the corpus from the module cache (downloading it when
// it is not there) to root, adds the type error, and loads the module
// once, so that no download counts as anyone's start.
func copyCorpus(root string) error {
	dir, err := modcache.Download(context.Background(), corpusModule)
	if err != nil {
		return err
	}
	if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
		return fmt.Errorf("copying %s: %w", dir, err)
	}
	file := filepath.Join(root, filepath.FromSlash(corpusFile))
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = f.WriteString(corpusError)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		return fmt.Errorf("adding the type error to %s: %w", file, err)
	}
	list := exec.Command("go", "list", "-deps", "./...")
	list.Dir = root
	if out, err := list.CombinedOutput(); err != nil {
		return fmt.Errorf("go list in the copy: %w\n%s", err, out)
	}
	return nil
}

// goplsMCP starts `gopls mcp` over stdio in root and calls go_diagnostics
// on file (absolute) at once: gopls answers when its workspace has loaded.
func goplsMCP(gopls, root, cacheHome, file string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(gopls, "mcp")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheHome)
	c := sdk.NewClient(&sdk.Implementation{Name: "startbench", Version: "1"}, nil)
	t0 := time.Now()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return 0, err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "go_diagnostics", Arguments: map[string]any{"files": []string{file}}})
	if err != nil {
		return 0, err
	}
	d := time.Since(t0)
	if err := namesTheError(res); err != nil {
		return 0, fmt.Errorf("%w (gopls mcp's tools may have changed: %s)", err, strings.Join(toolNames(ctx, cs), ", "))
	}
	return d, nil
}

// toolNames lists the session's tools, for an error message.
func toolNames(ctx context.Context, cs *sdk.ClientSession) []string {
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range res.Tools {
		out = append(out, t.Name)
	}
	return out
}

// corpusDocument is the corpus's part of the section ("" when it did not
// run).
func corpusDocument(s []*series, n int) string {
	if len(s) < 2 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (`-corpus %d`)\n\n", corpusHeading, n)
	fmt.Fprintf(&b, "%s copied from the module cache, a type error appended to %s: from starting each server over stdio to its first answer that names the error (devbroker's check, waiting for tools/list_changed; `gopls mcp`'s go_diagnostics, called at once); rounds interleaved, the first round not counted, one XDG_CACHE_HOME for both (gopls's file cache warm).\n\n", corpusModule, corpusFile)
	fmt.Fprintf(&b, "| candidate | runs | p50 | p95 |\n|---|---:|---:|---:|\n")
	for _, x := range s {
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", x.name, len(x.samples), ms(x.percentile(50)), ms(x.percentile(95)))
	}
	ratio := float64(s[0].percentile(50)) / float64(s[1].percentile(50))
	verdict := "met"
	if ratio > corpusTarget {
		verdict = "NOT met"
	}
	fmt.Fprintf(&b, "\n- target: devbroker's p50 ≤ %.2f× gopls mcp's: %s (%.2f×)\n", corpusTarget, verdict, ratio)
	if len(s) == 3 {
		fmt.Fprintf(&b, "- the baseline's p50: %.2f× gopls mcp's\n", float64(s[2].percentile(50))/float64(s[1].percentile(50)))
	}
	return b.String()
}
