package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/devbroker/devbroker/engine"
)

// cmdRun runs one plan: devbroker run [--root DIR] PLAN.json|-
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the workspace root directory")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: devbroker run [--root DIR] PLAN.json|-")
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
	eng, err := engine.New(*root, engineOptions())
	if err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitBadUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res := eng.Run(ctx, plan)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		fmt.Fprintf(stderr, "devbroker run: %v\n", err)
		return exitNotOK
	}
	if !res.OK {
		return exitNotOK
	}
	return exitOK
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
