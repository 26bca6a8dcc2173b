package capabilities

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportEndsWithFixes checks the probe text's last block: the install
// hint of each missing driver (drivers sharing a hint together), and the
// trust command when the root is not trusted; nothing when all is well.
func TestReportEndsWithFixes(t *testing.T) {
	r := &Report{
		Root: "/src/my proj",
		Drivers: []DriverReport{
			{Name: "gopls", Probe: Probe{State: Found}},
			{Name: "ruff", Install: "pipx install ruff", Probe: Probe{State: Missing}},
			{Name: "ruff-format", Install: "pipx install ruff", Probe: Probe{State: Missing}},
			{Name: "shfmt", Install: "brew install shfmt", Probe: Probe{State: Missing}},
			{Name: "prettier", Probe: Probe{State: Untrusted}},
		},
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "to fix:\n" +
		"  install ruff, ruff-format: pipx install ruff\n" +
		"  install shfmt: brew install shfmt\n" +
		"  trust the root, once you have reviewed it (and its .devbroker.toml, if any): devbroker trust '/src/my proj'\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("the probe text ends\n%s\nwant it to end\n%s", b.String(), want)
	}

	ok := &Report{Root: "/r", Drivers: []DriverReport{{Name: "gopls", Probe: Probe{State: Found}}}, Project: &ProjectTrust{File: "/r/.devbroker.toml", Trusted: true}}
	b.Reset()
	if err := ok.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "to fix") {
		t.Errorf("nothing to fix, but:\n%s", b.String())
	}
}
