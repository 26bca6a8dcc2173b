// Command devbroker is a language-server-backed capability broker for AI
// coding agents and editor plugins. See the README for its commands.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities/confine"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/privtemp"
)

// Exit codes shared by the commands.
const (
	exitOK       = 0 // success, or no findings
	exitNotOK    = 1 // the plan failed, or there are findings
	exitBadUsage = 2 // malformed invocation or input (and, as exitToolFailure, a tool failure)
)

// commands are the command line's commands, in the order help lists
// them: run dispatches through this table, so a command without a help
// line cannot exist (TestEveryCommandHasHelp).
var commands = []struct {
	name string
	help string // the usage lines, each starting "devbroker NAME"
	run  func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}{
	{"run", `devbroker run [--root DIR] [--trust] [--quiet] PLAN.json|-
                                           run a plan; print the DevResult as JSON`, cmdRun},
	{"edit", `devbroker edit [--root DIR] [--trust] [--json] CALLS.json|-
                                           run edit_file calls (one object, or an array as one session)`, cmdEdit},
	{"probe", `devbroker probe [--root DIR] [--all] [--json] [--trust]
                                           report which drivers work, and the commands that fix what
                                           is missing`, func(a []string, _ io.Reader, o, e io.Writer) int { return cmdProbe(a, o, e) }},
	{"format", `devbroker format|lint|check|test [--root DIR] [--trust] [--quiet] [--format text|json|sarif] [--since REV] [--only changed] [--fix] [--write] [PATH...]
                                           format, lint or check files on disk, or run their tests
                                           (exit 0 clean, 1 findings, 2 tool failure)`, diagCommand(engine.Format)},
	{"lint", "", diagCommand(engine.Lint)},
	{"check", "", diagCommand(engine.Check)},
	{"test", "", diagCommand(engine.Test)},
	{"definition", `devbroker definition|references|hover [--root DIR] [--trust] [--json] POSITION [--symbol NAME]
                                           where the code at POSITION is defined, used, or what it is;
                                           POSITION is PATH:LINE:COL, or PATH[:LINE] with --symbol NAME
                                           (a name or Type.Method); prints path:line:col: text lines`, cmdPoint(engine.StepDefinition)},
	{"references", "", cmdPoint(engine.StepReferences)},
	{"hover", "", cmdPoint(engine.StepHover)},
	{"symbols", `devbroker symbols [--root DIR] [--trust] [--json] PATH | --query TEXT
                                           a file's outline, or the project's symbols matching TEXT`, cmdSymbols},
	{"rename", `devbroker rename [--root DIR] [--trust] [--json] [--write] POSITION [--symbol NAME] NEW_NAME
                                           rename everywhere: print the diff and write nothing, or with
                                           --write check the result and write it only when it is clean`, cmdRename},
	{"code-actions", `devbroker code-actions [--root DIR] [--trust] [--json] [--only KIND]... PATH[:LINE[:COL]] [--end-line N [--end-column N]] [--apply ID [--write]]
                                           list the quick fixes and refactorings offered there, each with
                                           an id; --apply ID applies one: prints the diff, or with --write
                                           checks the result and writes it only when it is clean`, cmdCodeActions},
	{"search", `devbroker search [--root DIR] [--trust] [--json] [--regex] PATTERN [PATH|GLOB ...]
                                           find PATTERN (literal, or RE2 with --regex) in the root's
                                           files, .gitignore respected; prints path:line:col: text lines`, cmdSearch},
	{"serve", `devbroker serve --mcp [--root DIR] [--trust] [--tools default|lean|full] [--http ADDR [--token-file FILE]]
                                           serve the MCP tools to agents over stdio, or streamable HTTP
                                           (a non-loopback ADDR needs DEVBROKER_TOKEN or --token-file)
  devbroker serve --stdio [--root DIR] [--trust]
                                           serve the editor protocol (JSON-RPC) on stdin/stdout
                                           (see devbroker serve --help)`, cmdServe},
	{"trust", `devbroker trust [DIR]                    trust DIR: its .devbroker.toml applies, and drivers that run
                                           the repository's code run (prints what will run; editing the
                                           file untrusts it again)`, func(a []string, _ io.Reader, o, e io.Writer) int { return cmdTrust(a, o, e) }},
	{"untrust", `devbroker untrust [DIR]                  forget DIR`, func(a []string, _ io.Reader, o, e io.Writer) int { return cmdUntrust(a, o, e) }},
	{"version", `devbroker version, devbroker --version   print devbroker's version and the Go version it was built with`, cmdVersion},
	{"help", `devbroker help, devbroker --help         show this help`, nil}, // run answers it: it reads this table
}

// usage is the help text: every command's lines, then the rules that
// hold across them.
func usage() string {
	var b strings.Builder
	b.WriteString("devbroker — a language-server-backed capability broker\n\nUsage:\n")
	for _, c := range commands {
		if c.help != "" {
			b.WriteString("  " + c.help + "\n")
		}
	}
	b.WriteString("\n" + usageRules)
	return b.String()
}

const usageRules = `A project's .devbroker.toml applies not at all until you trust the root
(devbroker trust DIR, or --trust for one run): until then the embedded
defaults and your own configuration ($XDG_CONFIG_HOME/devbroker/config.toml,
by default ~/.config/devbroker/config.toml) serve, the probe says so and
lists what the file would run, and the drivers that run the repository's
code (prettier, eslint, clippy) are untrusted.

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
		fmt.Fprint(stderr, usage())
		return exitBadUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help":
		name = "help"
	case "--version":
		name = "version"
	}
	if name == "help" {
		fmt.Fprint(stdout, usage())
		return exitOK
	}
	if name != "version" {
		// The private temporary directories that devbroker processes
		// killed before they could remove them left behind.
		_, _ = privtemp.Sweep()
	}
	for _, c := range commands {
		if c.name == name {
			// The C toolchain wrappers of the roots it did not trust.
			defer confine.Cleanup()
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "devbroker: unknown command %q\n\n%s", args[0], usage())
	return exitBadUsage
}

// diagCommand is the format, lint or check command.
func diagCommand(kind engine.Kind) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		return cmdDiag(kind, args, stdout, stderr)
	}
}

// cmdVersion prints the module's version (a release tag, or the
// pseudo-version of the commit a checkout was built at), the commit when
// known, and the Go version.
func cmdVersion(_ []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, versionLine())
	return exitOK
}

func versionLine() string {
	b := broker.ReadBuild()
	goVersion := b.Go
	if goVersion == "" {
		goVersion = runtime.Version()
	}
	return fmt.Sprintf("devbroker %s %s %s/%s", b, goVersion, runtime.GOOS, runtime.GOARCH)
}
