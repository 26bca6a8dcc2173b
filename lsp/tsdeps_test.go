package lsp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// TestDependentsWithoutFileReferences: a tsserver without fileReferences
// (TypeScript before 4.2) answers it with an error; Dependents is no
// failure then, but names the file whose importers are unknown, and why.
func TestDependentsWithoutFileReferences(t *testing.T) {
	s := fake(t, lsptest.OldTSServer, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(t.TempDir(), "a.ts")
	docs := []lsp.Document{{Path: a, LanguageID: "typescript", Text: "export const a = 1;\n"}}
	deps, err := s.Dependents(ctx, docs, []string{a}, func(string) (lsp.Document, bool) {
		t.Error("nothing to open")
		return lsp.Document{}, false
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(deps.Docs) != 0 || len(deps.Gaps) != 1 {
		t.Fatalf("dependents: %+v", deps)
	}
	g := deps.Gaps[0]
	if finds, known := s.FindsDependents(); !finds || !known {
		t.Errorf("FindsDependents = %v, %v", finds, known)
	}
	if g.Path != a || g.Inferred || !strings.Contains(g.Why, "TypeScript 4.2 or later") || !strings.HasSuffix(g.Why, "TypeScript Server Error (4.1.6): Unrecognized JSON command: fileReferences") {
		t.Errorf("gap: %+v", g)
	}
}

// TestDependentsOtherServers: a server that is not
// typescript-language-server reports dependents itself; Dependents
// answers nil, and once it runs FindsDependents says so without asking.
func TestDependentsOtherServers(t *testing.T) {
	s := fake(t, lsptest.Push, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, known := s.FindsDependents(); known {
		t.Fatal("known before the server runs")
	}
	deps, err := s.Dependents(ctx, nil, []string{"/x/a.ts"}, nil)
	if deps != nil || err != nil {
		t.Fatalf("dependents %+v, %v", deps, err)
	}
	if finds, known := s.FindsDependents(); finds || !known {
		t.Fatalf("FindsDependents = %v, %v once it runs", finds, known)
	}
}
