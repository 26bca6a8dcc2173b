// Command devbroker is a language-server-backed capability broker for AI
// coding agents and editor plugins. See the README for its commands.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/devbroker/devbroker/engine"
)

// Exit codes shared by the commands.
const (
	exitOK       = 0 // success, or no findings
	exitNotOK    = 1 // the plan failed, or there are findings
	exitBadUsage = 2 // malformed invocation or input (and, as exitToolFailure, a tool failure)
)

const usage = `devbroker — a language-server-backed capability broker

Usage:
  devbroker run [--root DIR] [--trust] PLAN.json|-
                                           run a plan; print the DevResult as JSON
  devbroker edit [--root DIR] [--json] CALLS.json|-
                                           run edit_file calls (one object, or an array as one session)
  devbroker probe [--root DIR] [--json] [--trust]
                                           report which drivers work
  devbroker format|lint|check [--root DIR] [--trust] [--format text|json|sarif] [--fix] [--write] [PATH...]
                                           format, lint or check files on disk
                                           (exit 0 clean, 1 findings, 2 tool failure)
  devbroker serve --mcp [--root DIR] [--trust] [--http ADDR [--token-file FILE]]
                                           serve the MCP tools over stdio, or streamable HTTP
                                           (a non-loopback ADDR needs DEVBROKER_TOKEN or --token-file;
                                           see devbroker serve --help)
  devbroker trust [DIR]                    trust DIR: its .devbroker.toml applies, and drivers that run
                                           the repository's code run (prints what will run; editing the
                                           file untrusts it again)
  devbroker untrust [DIR]                  forget DIR
  devbroker help                           show this help

A project's .devbroker.toml applies not at all until you trust the root
(devbroker trust DIR, or --trust for one run): until then the embedded
defaults alone serve, the probe says so and lists what the file would run,
and the drivers that run the repository's code (prettier, eslint, clippy)
are untrusted.

Exit codes: 0 ok; 1 not ok (a failed step, an error diagnostic, findings);
2 a tool failure (a driver timed out, crashed, was still indexing, or left a
language unchecked; no driver for a step) or a malformed invocation or input.
A lint or check step with an error diagnostic or an incomplete answer ends a
plan: nothing after it runs, including write.
`

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// run dispatches a command line and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	pinGoToolchain()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadUsage
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "edit":
		return cmdEdit(args[1:], stdin, stdout, stderr)
	case "probe":
		return cmdProbe(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdin, stdout, stderr)
	case "trust":
		return cmdTrust(args[1:], stdout, stderr)
	case "untrust":
		return cmdUntrust(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		if st, ok := engine.LookupStep(engine.StepName(args[0])); ok && st.Kind != "" {
			return cmdDiag(st.Kind, args[1:], stdout, stderr) // format, lint and check
		}
		fmt.Fprintf(stderr, "devbroker: unknown command %q\n\n%s", args[0], usage)
		return exitBadUsage
	}
}
