// Command peerbench measures devbroker against the MCP servers an agent
// could use instead, end to end through MCP over stdio with the official
// Go SDK's client, on the same one-line edits of a real module:
//
//   - devbroker dev_plan [edit, check]: the edit made in memory, never on disk;
//   - devbroker edit_file (str_replace, on disk) then the check tool;
//   - gopls mcp, built from the gopls this module pins: the file written
//     by the benchmark, then go_diagnostics;
//   - agent-lsp, built from its public source with the Go toolchain (or
//     skipped with a message): the file written, then get_diagnostics.
//
// Three modes of edits, the candidates interleaved step by step, each on
// its own copy of the module: distinct edits (every state new, an error
// with a string of its own or a clean declaration with a name of its
// own), a put-back with another file changed, and the toggle of one error
// (the cached case). It also measures the cold start to the first correct
// answer and 10 sessions at once on one root, samples the memory of each
// server's process tree meanwhile (bench/internal/procmem), and writes its
// section of bench/RESULTS.md. See bench/README.md.
//
//	go run ./bench/peerbench -n 20 -agent-lsp-src DIR
//	go run ./bench/peerbench -smoke
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// options are the command line.
type options struct {
	module      string   // the module to copy; "" means honnef.co/go/tools
	file        string   // the edited file, relative to the module
	n           int      // edits per candidate and direction
	coldN       int      // cold starts per candidate
	sessions    int      // concurrent sessions on one root
	agentLSPSrc string   // a checkout (or git directory) of agent-lsp
	modes       []string // the edit modes measured, in order
	baseline    string   // another devbroker binary, measured on the disk path too
	agentLSP    bool     // measure agent-lsp (when it can be built)
	smoke       bool     // a generated module, tiny counts
	out         string   // the results file; "" writes none
	args        []string
}

func main() {
	var o options
	flag.StringVar(&o.module, "module", "", "the Go module to measure, copied to temporary directories first (default: "+defaultModule+"@"+defaultVersion+" from the module cache)")
	flag.StringVar(&o.file, "file", "", "the file to edit, a slash path relative to the module (default with the default module: "+defaultFile+")")
	flag.IntVar(&o.n, "n", 15, "rounds per edit mode: each row of the edit tables gets n answers per candidate")
	modeList := flag.String("modes", strings.Join(modes, ","), "the edit modes to measure, comma-separated: distinct (every state new), put-back (with another file changed), toggle (the cached case)")
	flag.StringVar(&o.baseline, "baseline", "", "another devbroker binary (a build before a change), measured on the disk path (edit_file + check) in the same rounds, and serving sessions of its own in the -sessions rounds")
	flag.BoolVar(&o.agentLSP, "agent-lsp", true, "measure agent-lsp too (false skips it)")
	flag.IntVar(&o.coldN, "cold-n", 3, "cold starts measured per candidate (after one that is not counted)")
	flag.IntVar(&o.sessions, "sessions", 10, "concurrent MCP sessions on one root")
	flag.StringVar(&o.agentLSPSrc, "agent-lsp-src", "", "agent-lsp's source: a checkout, or a git directory whose HEAD is built (default: go install github.com/blackwell-systems/agent-lsp/cmd/agent-lsp@latest; skipped when that fails)")
	flag.BoolVar(&o.smoke, "smoke", false, "a quick run on a small generated module: -n 2, one cold start, no agent-lsp unless -agent-lsp-src is given, no results file unless -out is given")
	flag.StringVar(&o.out, "out", "bench/RESULTS.md", "the results file whose peerbench section is rewritten (\"\" for none)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: peerbench [flags]\n\nMeasures edit → diagnostics through MCP: devbroker against gopls mcp and agent-lsp.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	o.args = os.Args[1:]
	for _, m := range strings.Split(*modeList, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		if !slices.Contains(modes, m) {
			fmt.Fprintf(os.Stderr, "peerbench: unknown mode %q in -modes: give some of %s\n", m, strings.Join(modes, ", "))
			os.Exit(2)
		}
		o.modes = append(o.modes, m)
	}
	if o.smoke {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["n"] {
			o.n = 2
		}
		if !set["cold-n"] {
			o.coldN = 1
		}
		if !set["sessions"] {
			o.sessions = 3
		}
		if !set["out"] {
			o.out = ""
		}
	}
	if flag.NArg() > 0 || o.n < 1 || o.coldN < 0 || o.sessions < 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "peerbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	modcache.AllowModUpdates()
	tmp, err := os.MkdirTemp("", "peerbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	res := newResults(o)
	tools, err := buildTools(ctx, tmp, o, res)
	if err != nil {
		return err
	}
	c, err := newCorpus(ctx, tmp, o)
	if err != nil {
		return err
	}
	res.module, res.file, res.section = c.label, c.file, c.section
	if err := measureEdits(ctx, c, tools, o, res); err != nil {
		return err
	}
	if err := measureCold(ctx, c, tools, o, res); err != nil {
		return err
	}
	if err := measureSessions(ctx, c, tools, o, res); err != nil {
		if o.smoke {
			return err
		}
		// The other measurements stand; the section says what failed.
		logf("%v", err)
		res.failures = append(res.failures, err.Error())
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
	fmt.Fprintf(os.Stderr, "peerbench: %5.1fs "+format+"\n", append([]any{time.Since(started).Seconds()}, args...)...)
}

// started is when the process started, for the progress lines.
var started = time.Now()

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.0f ms", float64(d.Microseconds())/1000)
}
