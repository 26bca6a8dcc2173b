package main

// The probe has one text form: `devbroker probe` prints it and the MCP
// probe tool answers with it (followed by the tools it offers).

import (
	"bytes"
	"strings"
	"testing"
)

// TestProbeTextSameOnCLIAndMCP probes one untrusted root through the CLI
// and through the MCP probe tool of the real binary and compares the
// texts: the project part, the drivers (untrusted ones with the command
// they would run) and what is available, line for line.
func TestProbeTextSameOnCLIAndMCP(t *testing.T) {
	parent, root := trustRoots(t, markerTOML)
	var stdout, stderr bytes.Buffer
	if code := cmdProbe([]string{"--root", root}, &stdout, &stderr); code != exitOK {
		t.Fatalf("devbroker probe: exit %d: %s", code, stderr.String())
	}
	cli := stdout.String()

	cs := connectStdio(t, root)
	res := callTool(t, cs, "probe", map[string]any{})
	if res.IsError {
		t.Fatalf("probe: %s", resultText(res))
	}
	mcp := resultText(res)
	report, tools, ok := strings.Cut(mcp, "\ntools: ")
	if !ok {
		t.Fatalf("the probe tool's text has no tools line:\n%s", mcp)
	}
	if report+"\n" != cli {
		t.Errorf("the probe tool's text differs from devbroker probe's\nMCP:\n%s\nCLI:\n%s", report, cli)
	}
	if !strings.Contains(tools, "probe") {
		t.Errorf("tools line %q does not list probe", tools)
	}
	for _, want := range []string{"is not trusted: none of it applies", "mark: version_command sh -c", "\nDRIVER ", "untrusted", "; it would run: ", "\nformat: "} {
		if !strings.Contains(cli, want) {
			t.Errorf("the probe's text lacks %q:\n%s", want, cli)
		}
	}
	assertNoMarkers(t, parent)
}
