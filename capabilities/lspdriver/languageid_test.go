package lspdriver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
)

// TestLanguageIDsFromConfiguration ties what an lsp driver knows of file
// types to the default configuration, its one home: for every language
// and every language server its lists name, a file of each of the
// language's file types is sent with the language's identifier (the
// driver's language_id when it sets one; the JSX forms by their own),
// and a workspace symbol search shows the server such a file changed in
// the workspace; a file of a language that does not name the server is
// not shown to it.
func TestLanguageIDsFromConfiguration(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	set, err := capabilities.NewSet(cfg, drivers.Types, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	checked := 0
	for ln, l := range cfg.Languages {
		var servers []string
		for _, list := range [][]string{l.Intelligence, l.Check, l.Lint, l.Format} {
			for _, e := range list {
				slot, err := configs.ParseSlot(e)
				if err != nil {
					t.Fatal(err)
				}
				for _, dn := range append(slot.Drivers(), e) {
					if dc := cfg.Drivers[dn]; dc != nil && dc.Type == lspdriver.Type.Name && !slices.Contains(servers, dn) {
						servers = append(servers, dn)
					}
				}
			}
		}
		for _, dn := range servers {
			d := set.Drivers()[dn]
			for _, ft := range l.FileTypes {
				p := "src/" + ft
				if strings.HasPrefix(ft, "*.") {
					p = "src/x" + ft[1:]
				}
				if strings.ContainsAny(p[4:], "*?[{/") {
					t.Fatalf("%s: file type %q: give the test a file name for it", ln, ft)
				}
				want := ln
				if id := lspdriver.JSXIDs[strings.TrimPrefix(ft, "*")]; id == ln+"react" {
					want = id
				}
				if id := cfg.Drivers[dn].LanguageID; id != "" {
					want = id
				}
				if got := lspdriver.LanguageID(d, p); got != want {
					t.Errorf("%s sends %s (%s, file type %q) as %q, want %q", dn, p, ln, ft, got, want)
				}
				if got := lspdriver.Viewed(d, []string{p}); !slices.Equal(got, []string{p}) {
					t.Errorf("%s's workspace symbol search does not show the server %s (%s, file type %q) changed in the workspace: it shows %v", dn, p, ln, ft, got)
				}
				checked++
			}
			for other, ol := range cfg.Languages {
				if got := lspdriver.Viewed(d, []string{"src/x" + strings.TrimPrefix(ol.FileTypes[0], "*")}); other != ln && !usesDriver(cfg, other, dn) && len(got) > 0 {
					t.Errorf("%s's workspace symbol search shows the server %v, of %s, whose lists do not name it", dn, got, other)
				}
			}
		}
	}
	// The JSX identifiers extend the language of their own file type.
	for ext, id := range lspdriver.JSXIDs {
		l := cfg.Languages[strings.TrimSuffix(id, "react")]
		if l == nil || !slices.Contains(l.FileTypes, "*"+ext) {
			t.Errorf("%s files are sent as %s, but %s is no file type of %s", ext, id, ext, strings.TrimSuffix(id, "react"))
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d file types of language servers: the defaults' servers were not found", checked)
	}
}

// usesDriver reports whether language ln's lists name driver dn.
func usesDriver(cfg *configs.Config, ln, dn string) bool {
	l := cfg.Languages[ln]
	for _, list := range [][]string{l.Intelligence, l.Check, l.Lint, l.Format} {
		for _, e := range list {
			if slot, err := configs.ParseSlot(e); err == nil && slices.Contains(slot.Drivers(), dn) {
				return true
			}
		}
	}
	return false
}
