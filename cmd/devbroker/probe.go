package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/devbroker/devbroker/capabilities/drivers"
)

// cmdProbe reports which drivers work: devbroker probe [--root DIR] [--json] [--trust]
func cmdProbe(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("probe", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the root directory whose configuration is probed")
	asJSON := fl.Bool("json", false, "print the report as JSON")
	trusted := trustFlag(fl)
	if err := fl.Parse(args); err != nil || fl.NArg() != 0 {
		fmt.Fprintln(stderr, "usage: devbroker probe [--root DIR] [--json] [--trust]")
		return exitBadUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	set, report, err := drivers.LoadWith(ctx, *root, trusted(*root))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker probe: %v\n", err)
		return exitBadUsage
	}
	defer set.Close()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(report); err != nil {
			return exitNotOK
		}
		return exitOK
	}
	if err := report.WriteText(stdout); err != nil {
		return exitNotOK
	}
	return exitOK
}
