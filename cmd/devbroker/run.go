package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
)

// cmdRun runs one plan: devbroker run [--root DIR] PLAN.json|-
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the workspace root directory")
	trusted := trustFlag(fl)
	quiet := quietFlag(fl)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: devbroker run [--root DIR] [--trust] [--quiet] PLAN.json|-\n"+
			"Exit status: 0 ok; 1 not ok (a step failed, or an error diagnostic); 2 a driver's answer\n"+
			"was incomplete (timeout, crashed, indexing, unchecked) or no driver serves a step, or bad usage.")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return exitBadUsage
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return exitBadUsage
	}
	data, err := readInput(fl.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitBadUsage
	}
	plan, err := engine.ParsePlan(data)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitBadUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := engineOptions()
	// The workspace limits a trusted project sets ([limits] in
	// .devbroker.toml) take effect whether or not the plan needs a driver.
	limits, err := drivers.Limits(*root, trusted(*root))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitBadUsage
	}
	opts.Limits = opts.Limits.Overlay(broker.ConfigLimits(limits))
	if needsCapabilities(plan) {
		// Probe only when the plan asks for format, lint or check.
		set, _, err := drivers.LoadWith(ctx, *root, loadOptions(trusted(*root), drivers.ProbeLazy))
		if err != nil {
			fmt.Fprintf(stderr, "devbroker run: %v\n", err)
			return exitBadUsage
		}
		defer set.Close()
		announce(stderr, "run", set)
		set.StartEarly() // a language server starts beside its probe
		opts.Capabilities = set
	}
	eng, err := engine.New(*root, opts)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitBadUsage
	}
	pctx, endProgress := withProgress(ctx, "run", stderr, *quiet)
	res := eng.Run(pctx, plan)
	endProgress()
	if err := writeJSON(stdout, wireResult(eng, res)); err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitNotOK
	}
	return runExit(res)
}

// wireResult is a plan's result as every surface sends it (broker/wire):
// unwritten lists what the plan left in the workspace, not on disk.
func wireResult(eng *engine.Engine, res *engine.Result) *wire.DevResult {
	return wire.NewDevResult(res, eng.Workspace().Unwritten(), wire.Options{})
}

// writeJSON prints v as indented JSON, the commands' one JSON form.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// runExit maps a plan's result to the exit status: 0 ok, 2 when a step
// failed because no driver answered completely (a tool failure, like the
// format, lint and check commands), 1 otherwise when not ok.
func runExit(res *engine.Result) int {
	switch {
	case res.OK:
		return exitOK
	case res.Error != nil && (res.Error.Kind.Incomplete() || res.Error.Kind == fault.Unavailable):
		return exitToolFailure
	}
	return exitNotOK
}

// readInput reads a file, or standard input for "-".
func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

// engineOptions are the options of every engine the commands create. Tests
// replace it to inject faults.
var engineOptions = func() engine.Options { return engine.Options{} }

// needsCapabilities reports whether a plan has a format, lint or check step.
func needsCapabilities(p *engine.Plan) bool {
	for _, op := range p.Ops {
		if st, ok := engine.LookupStep(op.Step); ok && st.Kind != "" {
			return true
		}
	}
	return false
}
