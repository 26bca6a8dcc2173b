// Command navbench measures devbroker's language intelligence against the
// language server it drives, on the same requests of a real module:
//
//   - warm definition and references through devbroker's MCP tools (over
//     stdio, the official Go SDK's client), against the same requests sent
//     by a minimal raw LSP client straight to gopls (the pinned gopls, on
//     its own copy of the module): the ratio is the broker's overhead;
//   - the workspace symbol search: devbroker's symbols tool against
//     gopls mcp's go_search with the same queries, both through MCP;
//   - the rename of an exported function used in many packages:
//     devbroker's in-memory dev_plan [rename, check] (nothing written),
//     against gopls rename -w and go build ./... on a copy.
//
// Rounds are interleaved after a warm-up; each answer is compared with the
// other side's (the same locations; the same files changed, byte for
// byte). It writes its section of bench/RESULTS.md. See bench/README.md.
//
//	go run ./bench/navbench -n 15
//	go run ./bench/navbench -module ~/go/pkg/mod/golang.org/x/tools@v0.47.1-0.20260707181000-a299dadba899
//	go run ./bench/navbench -smoke
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// options are the command line.
type options struct {
	n       int    // rounds of the navigation requests
	renameN int    // rounds of the rename
	smoke   bool   // a generated module, tiny counts
	module  string // the module's directory; "" for the default
	targets bool   // print the targets chosen in module and stop
	binary  string // a devbroker to measure instead of building one
	out     string // the results file; "" writes none
	args    []string
}

func main() {
	var o options
	flag.IntVar(&o.n, "n", 15, "measured rounds of every definition and references request (after a warm-up)")
	flag.IntVar(&o.renameN, "rename-n", 5, "measured rounds of the rename (after a warm-up)")
	flag.BoolVar(&o.smoke, "smoke", false, "a quick run on a small generated module: -n 2, -rename-n 1, no results file unless -out is given; fails only on a wrong devbroker answer")
	flag.StringVar(&o.module, "module", "", "a Go module's directory to measure, copied to temporary directories first, its targets chosen from its packages (default: "+defaultModule+"@"+defaultVersion+" from the module cache, with fixed targets)")
	flag.BoolVar(&o.targets, "targets", false, "print the targets chosen in the -module and stop")
	flag.StringVar(&o.binary, "devbroker", "", "a devbroker binary to measure (default: go build ./cmd/devbroker of this checkout)")
	flag.StringVar(&o.out, "out", "bench/RESULTS.md", "the results file whose navbench section is rewritten (\"\" for none)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: navbench [flags]\n\nMeasures definition, references and rename: devbroker through MCP against gopls.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	o.args = os.Args[1:]
	if o.smoke {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["n"] {
			o.n = 2
		}
		if !set["rename-n"] {
			o.renameN = 1
		}
		if !set["out"] {
			o.out = ""
		}
	}
	if flag.NArg() > 0 || o.n < 1 || o.renameN < 0 || o.targets && o.module == "" {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "navbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	modcache.AllowModUpdates()
	if o.targets {
		ch, err := chooseTargets(ctx, o.module)
		if err != nil {
			return err
		}
		fmt.Print(ch.describe())
		return nil
	}
	tmp, err := os.MkdirTemp("", "navbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	res := newResults(o)
	t, err := buildTools(ctx, tmp, o.binary, res)
	if err != nil {
		return err
	}
	c, err := newCorpus(ctx, tmp, o)
	if err != nil {
		return err
	}
	res.module, res.section, res.chosen = c.label, c.section, c.chosen
	if c.chosen {
		for _, t := range c.nav {
			res.targets = append(res.targets, fmt.Sprintf("definition and references: %s, %s", t, t.note))
		}
		res.targets = append(res.targets,
			fmt.Sprintf("rename: %s to %s, %s", c.rename, c.newName, c.rename.note),
			"symbol queries: `"+strings.Join(c.queries, "`, `")+"`")
	}
	defer func() {
		if res.dev != nil {
			res.dev.close()
		}
	}()
	if err := measureNav(ctx, c, t, o, res); err != nil {
		return err
	}
	if res.dev != nil {
		res.symQueries = c.queries
		if err := measureSymbols(ctx, c, t, o, res); err != nil {
			return err
		}
	}
	if o.renameN > 0 {
		if err := measureRename(ctx, c, t, o, res); err != nil {
			return err
		}
	}
	res.finish()
	body := res.document()
	if o.smoke && o.out == "" {
		fmt.Print(res.summary())
	} else {
		fmt.Print(body)
	}
	if err := res.write(o.out, body); err != nil {
		return err
	}
	if o.smoke {
		return res.devbrokerWrong()
	}
	return nil
}

// logf reports progress on standard error.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "navbench: %5.1fs "+format+"\n", append([]any{time.Since(started).Seconds()}, args...)...)
}

// started is when the process started, for the progress lines.
var started = time.Now()

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}
