package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// layered runs the tests (not the commands testscript runs as the
// binary) with the test configuration layer: every default driver gets a
// generous timeout (configs/configtest), in the servers and commands the
// Go tests start too.
type layered struct{ m *testing.M }

func (l layered) Run() int { return configtest.Run(l.m) }

func TestMain(m *testing.M) {
	testscript.Main(layered{m}, map[string]func(){
		"devbroker": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// devbroker-faulty is devbroker with a disk fault injected:
		// DEVBROKER_FAIL=OP:PATH fails that operation (write, rename,
		// remove) with an I/O error.
		"devbroker-faulty": func() {
			op, path, _ := strings.Cut(os.Getenv("DEVBROKER_FAIL"), ":")
			engineOptions = func() engine.Options {
				return engine.Options{Hooks: rootfs.Hooks{BeforeOp: func(o, p, _ string) error {
					if o == op && p == path {
						return fmt.Errorf("injected fault: %s %s", o, p)
					}
					return nil
				}}}
			}
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		// devbroker-tty is devbroker whose standard error counts as a
		// terminal: it draws progress.
		"devbroker-tty": func() {
			isTerminal = func(io.Writer) bool { return true }
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
		// devbroker-hang is devbroker whose only driver is a linter that
		// hangs until its call is cancelled (see hang_test.go).
		"devbroker-hang": hangMain,
		// fake-lsp is a fake language server (lsp/lsptest): the fault
		// $DEVBROKER_FAKE_LSP names (see hung_test.go).
		"fake-lsp": func() {
			lsptest.Main()
			fmt.Fprintln(os.Stderr, "fake-lsp: set "+lsptest.EnvVar)
			os.Exit(2)
		},
		// devbroker-limited is devbroker whose sessions hold at most
		// DEVBROKER_MAX_FILES files.
		"devbroker-limited": func() {
			n, _ := strconv.Atoi(os.Getenv("DEVBROKER_MAX_FILES"))
			engineOptions = func() engine.Options {
				return engine.Options{Limits: workspace.Limits{MaxFiles: n}}
			}
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real binary.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		RequireExplicitExec: true,
		Cmds:                scriptCmds,
		// The trust list and the user's configuration of each script are
		// its own, never the user's. Every user configuration of the
		// script ($WORK/.config's, and any devbroker/config.toml its
		// archive holds) gets the test layer: no driver runs under its
		// default timeout.
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_STATE_HOME", filepath.Join(env.WorkDir, ".state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			return installLayers(env.WorkDir)
		},
	})
}

// installLayers installs the test configuration layer in work/.config and
// in every other directory of work that holds a devbroker/config.toml.
func installLayers(work string) error {
	dirs := []string{filepath.Join(work, ".config")}
	err := filepath.WalkDir(work, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "config.toml" && filepath.Base(filepath.Dir(p)) == "devbroker" {
			if dir := filepath.Dir(filepath.Dir(p)); dir != dirs[0] {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, dir := range dirs {
		if err := configtest.Install(dir); err != nil {
			return err
		}
	}
	return nil
}
