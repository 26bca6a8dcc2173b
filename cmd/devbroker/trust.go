package main

// This file defines the trust and untrust commands, and the --trust flag
// of the commands that load a configuration.

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
)

// trustFlag adds --trust to fl. The function it returns gives the options
// of drivers.LoadWith for root: with --trust, the root's project file as
// it is at that call (when the command starts) is trusted for this
// invocation, and nothing is written; otherwise, and for a file changed
// since, the user's trust list decides.
func trustFlag(fl *flag.FlagSet) func(root string) drivers.Options {
	on := fl.Bool("trust", false, "trust the root's .devbroker.toml, as it is at start, for this invocation only (for CI); the trust list is not written")
	return func(root string) drivers.Options {
		if !*on {
			return drivers.Options{}
		}
		var fallback trust.Checker
		if s, err := trust.Default(); err == nil {
			fallback = s
		}
		hash, err := configs.FileHash(root)
		if err != nil {
			return drivers.Options{Trust: fallback} // the load reports the error
		}
		return drivers.Options{Trust: trust.Pinned(map[string]string{root: hash}, fallback)}
	}
}

// cmdTrust trusts a root, with its project file as it is now (or its
// having none): devbroker trust [DIR]
func cmdTrust(args []string, stdout, stderr io.Writer) int {
	dir, ok := trustDir("trust", args, stderr)
	if !ok {
		return exitBadUsage
	}
	p, err := configs.LoadProject(dir)
	if err == nil {
		err = p.Invalid
	}
	if err != nil {
		fmt.Fprintf(stderr, "devbroker trust: %v\nFix the configuration before trusting it.\n", err)
		return exitBadUsage
	}
	s, err := trust.Default()
	if err != nil {
		fmt.Fprintf(stderr, "devbroker trust: %v\n", err)
		return exitNotOK
	}
	real, err := s.Trust(dir, p.Hash)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker trust: %v\n", err)
		return exitNotOK
	}
	if p.File == "" {
		fmt.Fprintf(stdout, "trusted %s\n  no %s: the embedded defaults apply, with their drivers that run the repository's code (%s)\n", real, configs.ProjectFile, strings.Join(repositoryCode(p.Config), ", "))
		fmt.Fprintf(stdout, "Recorded in %s. Creating %s untrusts it again; devbroker untrust %s forgets it.\n", s.Path, configs.ProjectFile, real)
		return exitOK
	}
	fmt.Fprintf(stdout, "trusted %s\n  file %s\n  %s\n", real, p.File, p.Hash)
	fmt.Fprintln(stdout, "All of it applies.")
	if rc := repositoryCode(p.Config); len(rc) > 0 {
		fmt.Fprintf(stdout, "Drivers that run the repository's code run too: %s.\n", strings.Join(rc, ", "))
	}
	if len(p.Commands) == 0 {
		fmt.Fprintln(stdout, "It names no commands: only the embedded defaults' commands run.")
	} else {
		fmt.Fprintln(stdout, "Its drivers will run:")
		for _, c := range p.Commands {
			for _, r := range c.Runs {
				fmt.Fprintf(stdout, "  %s: %s %s\n", c.Driver, r.Key, strings.Join(r.Argv, " "))
			}
			if c.Keys != nil {
				fmt.Fprintf(stdout, "  %s: changes the default driver's %s\n", c.Driver, strings.Join(c.Keys, ", "))
			}
		}
	}
	fmt.Fprintf(stdout, "Recorded in %s. Editing %s untrusts it again; devbroker untrust %s forgets it.\n", s.Path, configs.ProjectFile, real)
	return exitOK
}

// repositoryCode lists the languages' drivers of cfg that run the
// repository's code, sorted.
func repositoryCode(cfg *configs.Config) []string {
	used := map[string]bool{}
	for _, l := range cfg.Languages {
		for _, list := range [][]string{l.Format, l.Lint, l.Check, l.Intelligence} {
			for _, e := range list {
				if slot, err := configs.ParseSlot(e); err == nil {
					for _, d := range slot.Drivers() {
						used[d] = true
					}
				}
			}
		}
	}
	var out []string
	for name, d := range cfg.Drivers {
		if d.RunsRepositoryCode && used[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// cmdUntrust forgets a root: devbroker untrust [DIR]
func cmdUntrust(args []string, stdout, stderr io.Writer) int {
	dir, ok := trustDir("untrust", args, stderr)
	if !ok {
		return exitBadUsage
	}
	s, err := trust.Default()
	if err != nil {
		fmt.Fprintf(stderr, "devbroker untrust: %v\n", err)
		return exitNotOK
	}
	real, was, err := s.Untrust(dir)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker untrust: %v\n", err)
		return exitNotOK
	}
	if !was {
		fmt.Fprintf(stdout, "%s was not trusted\n", real)
		return exitOK
	}
	fmt.Fprintf(stdout, "untrusted %s: its %s no longer applies, and drivers that run the repository's code no longer run there\n", real, configs.ProjectFile)
	return exitOK
}

// trustDir parses [DIR] (default ".").
func trustDir(cmd string, args []string, stderr io.Writer) (string, bool) {
	fl := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: devbroker %s [DIR]\n", cmd)
	}
	if err := fl.Parse(args); err != nil || fl.NArg() > 1 {
		if err == nil {
			fl.Usage()
		}
		return "", false
	}
	if fl.NArg() == 1 {
		return fl.Arg(0), true
	}
	return ".", true
}
