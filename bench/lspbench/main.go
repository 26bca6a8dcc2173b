// Command lspbench measures how long an agent waits, after a one-line
// edit, for the final diagnostics of a real Go module, in one run:
//
//   - devbroker: a warm gopls through capabilities/lspdriver, the edit sent
//     with didChange and settled by the gopls.diagnose_files barrier;
//   - gopls check FILE, spawned per edit on the file written to disk;
//   - two peer bridges' documented waits over the same gopls, reimplemented
//     with a raw client (peer.go): a fixed sleep after didChange, and a
//     quiet window (no publishDiagnostics for a while). A peer's answer
//     counts as correct only when it equals devbroker's settled one.
//
// It also reports gopls's memory for the root (VmHWM and VmRSS from /proc)
// and its cold start (start to the first settled check), prints a table
// and writes it to bench/RESULTS.md. See bench/README.md.
//
//	go run ./bench/lspbench              # honnef.co/go/tools v0.8.1, -n 50
//	go run ./bench/lspbench -module DIR -file pkg/file.go -n 20
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/section"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// options are the command line.
type options struct {
	module   string        // the module to copy; "" means honnef.co/go/tools
	file     string        // the file edited, relative to the module
	n        int           // edits for devbroker and the quiet window
	checkN   int           // edits for gopls check
	sleepN   int           // edits for the fixed sleep
	sleep    time.Duration // the fixed sleep
	quiet    time.Duration // the quiet window
	cold     bool          // also measure a cold start with an empty gopls cache
	out      string        // the results file; "" writes none
	keepTree bool          // keep the copied module
}

func main() {
	var o options
	flag.StringVar(&o.module, "module", "", "the Go module to measure, copied to a temporary directory first (default: honnef.co/go/tools@"+defaultVersion+" from the module cache)")
	flag.StringVar(&o.file, "file", "", "the file to edit, a slash path relative to the module (default with the default module: "+defaultFile+")")
	flag.IntVar(&o.n, "n", 50, "edits measured for devbroker and for the quiet-window peer")
	flag.IntVar(&o.checkN, "check-n", 20, "edits measured for gopls check (each starts a gopls)")
	flag.IntVar(&o.sleepN, "sleep-n", 5, "edits measured for the fixed-sleep peer")
	flag.DurationVar(&o.sleep, "sleep", 3*time.Second, "the fixed-sleep peer's wait after didChange")
	flag.DurationVar(&o.quiet, "quiet", 500*time.Millisecond, "the quiet-window peer's window without publishDiagnostics")
	flag.BoolVar(&o.cold, "cold-cache", true, "also measure a cold start with an empty gopls file cache (GOPLSCACHE)")
	flag.StringVar(&o.out, "out", "bench/RESULTS.md", "where to write the results as Markdown (\"\" for nowhere)")
	flag.BoolVar(&o.keepTree, "keep", false, "keep the copied module and print where it is")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: lspbench [flags]\n\nMeasures edit-to-final-diagnostics latency of gopls through devbroker against gopls check and peer bridges' waits.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 || o.n < 2 || o.checkN < 0 || o.sleepN < 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "lspbench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	modcache.AllowModUpdates()
	b, err := prepare(ctx, o)
	if err != nil {
		return err
	}
	if o.keepTree {
		logf("keeping the module copy at %s", b.root)
	} else {
		defer os.RemoveAll(b.tmp)
	}
	res := &results{opts: o, module: b.label, file: b.file, start: time.Now()}
	res.machine = host.Machine()
	res.gopls = b.goplsVersion
	if err := b.devbroker(ctx, res); err != nil {
		return fmt.Errorf("devbroker: %w", err)
	}
	if err := b.goplsCheck(ctx, res); err != nil {
		return fmt.Errorf("gopls check: %w", err)
	}
	if err := b.peers(ctx, res); err != nil {
		return fmt.Errorf("peers: %w", err)
	}
	res.took = time.Since(res.start)
	table := res.markdown()
	fmt.Println(table)
	if o.out != "" {
		// Other benchmarks' sections (startbench's) stay, and the one
		// that leads the file (peerbench's) stays in front.
		prev, _ := os.ReadFile(o.out)
		lead := section.Leading(string(prev), "peerbench")
		skip := ""
		if lead != "" {
			skip = "peerbench"
		}
		doc := lead + res.document(table) + section.Keep(string(prev), skip)
		if err := os.WriteFile(o.out, []byte(doc), 0o644); err != nil {
			return err
		}
		logf("wrote %s", o.out)
	}
	return nil
}

// logf reports progress on standard error.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "lspbench: "+format+"\n", args...)
}
