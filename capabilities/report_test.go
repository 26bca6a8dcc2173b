package capabilities

import (
	"bytes"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
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

// TestReportLinesAreShort: the driver table reads at a glance, its lines
// within 200 characters for the longest reasons a probe gives (an
// untrusted driver's reason with its driver's documentation and how to
// trust, a missing tool's install hint, a language server's nine kinds):
// the "to fix:" block says how to install and trust, the language kinds
// are one word, intelligence, and the structured report keeps every
// reason whole.
func TestReportLinesAreShort(t *testing.T) {
	long := strings.Repeat("a long sentence of documentation, ", 12)
	install := "go get -tool mvdan.cc/sh/v3/cmd/shfmt@latest (in the project's go.mod: run as go tool shfmt once you trust the root), or go install mvdan.cc/sh/v3/cmd/shfmt@latest, apt-get install shfmt (Debian), brew install shfmt"
	lsp := append([]engine.Kind{engine.Check, engine.Lint, engine.Format}, engine.LanguageKinds()...)
	r := &Report{
		Root: "/src/proj",
		Drivers: []DriverReport{
			{Name: "typescript-language-server", Type: "lsp", Kinds: lsp, Doc: long,
				Probe: Probe{State: Untrusted, Command: []string{"typescript-language-server", "--stdio"},
					Reason: "typescript-language-server runs code the repository provides, so not before you trust the root (" + long + "): this root is not trusted: review the root (its .devbroker.toml, if any), then run devbroker trust /src/proj (or pass --trust for one run)"}},
			{Name: "shfmt", Type: "external", Kinds: []engine.Kind{engine.Format}, Install: install,
				Probe: Probe{State: Missing, Reason: "shfmt is not on PATH; install: " + install}},
			{Name: "gopls", Type: "lsp", Kinds: lsp, Probe: Probe{State: Found, Version: "golang.org/x/tools/gopls v0.23.0", Path: "/root/go/bin/gopls"}},
		},
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	table, _, _ := strings.Cut(text, "\nformat:")
	for _, line := range strings.Split(table, "\n") {
		if len(line) > 200 {
			t.Errorf("a line of %d characters:\n%s", len(line), line)
		}
	}
	for _, want := range []string{
		"not run before you trust the root; it would run: typescript-language-server --stdio\n",
		"shfmt is not on PATH; install: see to fix\n",
		"check,lint,format,intelligence",
		"  install shfmt: " + install + "\n",
		"  trust the root, once you have reviewed it",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}
