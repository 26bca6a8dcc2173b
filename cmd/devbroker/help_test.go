package main

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
)

// TestEveryCommandHasHelp checks that help lists every command run
// dispatches (format, lint and check share a line), every engine step
// that is a command, and both modes of serve.
func TestEveryCommandHasHelp(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"help"}, nil, &out, io.Discard); code != exitOK {
		t.Fatalf("help exited %d", code)
	}
	help := out.String()
	names := []string{"help", "version"}
	for _, c := range commands {
		names = append(names, c.name)
	}
	for _, k := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		names = append(names, string(k))
	}
	for _, n := range names {
		re := regexp.MustCompile(`(?m)^  devbroker (\S+\|)?` + regexp.QuoteMeta(n) + `[|, \n]`)
		if !re.MatchString(help) {
			t.Errorf("help has no line for %q", n)
		}
	}
	for _, mode := range []string{"serve --mcp", "serve --stdio"} {
		if !strings.Contains(help, "devbroker "+mode) {
			t.Errorf("help does not show devbroker %s", mode)
		}
	}
	// Each of serve's modes is a flag of serve.
	var errOut bytes.Buffer
	run([]string{"serve", "--help"}, nil, io.Discard, &errOut)
	for _, f := range []string{"-mcp", "-stdio"} {
		if !strings.Contains(errOut.String(), f) {
			t.Errorf("serve --help does not list %s:\n%s", f, errOut.String())
		}
	}
}
