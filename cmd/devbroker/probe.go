package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine"
)

// cmdProbe reports which drivers work: devbroker probe [--root DIR] [--all] [--json] [--trust].
// It probes the drivers of the languages whose files are under the root,
// or with --all of every configured language.
func cmdProbe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("probe", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the root directory whose configuration is probed")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	all := fl.Bool("all", false, "probe every configured language, not only those whose files are under the root")
	trusted := trustFlag(fl)
	if err := fl.Parse(args); err != nil || fl.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: devbroker probe [--root DIR] [--all] [--json] [--trust]")
		return exitBadUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	mode := drivers.ProbePresent
	if *all {
		mode = drivers.ProbeAll
	}
	set, _, err := drivers.LoadWith(ctx, *root, probeOptions(trusted(*root), mode))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker probe: %v\n", err)
		return exitBadUsage
	}
	defer set.Close()
	report := set.ReportWithheld(ctx) // and which files a C language server is not sent
	if *asJSON {
		// The MCP probe tool's structured content, and devbroker/probe's.
		eng, err := engine.New(*root, engine.Options{Capabilities: confirmed{set}})
		if err != nil {
			fmt.Fprintf(stderr, "devbroker probe: %v\n", err)
			return exitBadUsage
		}
		if err := writeJSON(stdout, wire.NewProbeResult(report, eng.AvailableSteps())); err != nil {
			return exitNotOK
		}
		return exitOK
	}
	if err := report.WriteText(stdout); err != nil {
		return exitNotOK
	}
	return exitOK
}

// confirmed is a set whose kinds are those a driver found working serves,
// as the servers advertise them (a set's Has also counts the drivers it
// would probe on first use).
type confirmed struct{ *capabilities.Set }

func (c confirmed) Has(kind engine.Kind) bool { return c.Serves(kind) }
