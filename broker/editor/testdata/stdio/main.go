// Command stdio stands in for `devbroker serve --stdio [--root DIR]` in
// the headless Neovim test until that command is wired: it serves the
// editor endpoint (editor.Serve) on stdin and stdout, with no drivers (the
// test needs no format, lint or check). Once serve.go calls editor.Serve,
// the test can build ./cmd/devbroker instead.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
)

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

func main() {
	if len(os.Args) < 2 || os.Args[1] != "serve" {
		fmt.Fprintln(os.Stderr, "usage: devbroker serve --stdio [--root DIR]")
		os.Exit(2)
	}
	fl := flag.NewFlagSet("serve", flag.ExitOnError)
	fl.Bool("stdio", false, "serve the editor endpoint on stdin and stdout")
	root := fl.String("root", ".", "the workspace root directory")
	fl.Parse(os.Args[2:])
	mgr := broker.NewManager(broker.Options{})
	defer mgr.Close()
	if err := editor.Serve(context.Background(), stdio{}, mgr, *root); err != nil {
		fmt.Fprintln(os.Stderr, "devbroker serve:", err)
		os.Exit(1)
	}
}
