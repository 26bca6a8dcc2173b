package main

// Users and models read the README, docs/ and the MCP tool texts; the
// team's specification documents are not theirs to read, so none of these
// texts may point at them.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// teamOnly matches words that name the team's own specification documents.
var teamOnly = regexp.MustCompile(`(?i)\bseeds?\b|seed[- ]?0\d\d|CONTRACT\.md|DESIGN\.md`)

func TestUserTextNamesNoTeamDocument(t *testing.T) {
	files := []string{"../../README.md", "../../editors/nvim/README.md", "../../editors/nvim/lua/devbroker/init.lua"}
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("docs/*.md: %v (%d files)", err, len(docs))
	}
	for _, f := range append(files, docs...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := teamOnly.FindIndex(data); m != nil {
			t.Errorf("%s names a team document: %q", f, excerpt(data, m[0]))
		}
	}

	// The server's instructions, and every tool's description and schemas,
	// as a client lists them, in every tool profile.
	root := testtree.New(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "a.go": "package m\n"})
	for _, name := range configs.MCPTools {
		p := brokermcp.Profile(name)
		cs := connectStdio(t, root, "--tools", string(p))
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tools) < 5 {
			t.Fatalf("%s: only %d tools listed", p, len(res.Tools))
		}
		if init := cs.InitializeResult(); init != nil {
			if m := teamOnly.FindStringIndex(init.Instructions); m != nil {
				t.Errorf("%s: the server's instructions name a team document: %q", p, excerpt([]byte(init.Instructions), m[0]))
			}
		}
		for _, tl := range res.Tools {
			in, _ := json.Marshal(tl.InputSchema)
			out, _ := json.Marshal(tl.OutputSchema)
			for _, s := range []string{tl.Description, string(in), string(out)} {
				if m := teamOnly.FindStringIndex(s); m != nil {
					t.Errorf("%s: tool %s names a team document: %q", p, tl.Name, excerpt([]byte(s), m[0]))
				}
			}
		}
	}
}

func excerpt(b []byte, at int) string {
	lo, hi := max(0, at-40), min(len(b), at+40)
	return string(b[lo:hi])
}
