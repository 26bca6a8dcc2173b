package mcp

// The tool texts are read by a model that has never seen devbroker: these
// tests list the tools through a real MCP client and hold every text to a
// size budget, every tool to a title and honest annotations, and the three
// look-alike pairs to saying how they differ.

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
)

// The size budgets, in bytes, of a tool's description and of the server's
// instructions.
const (
	descriptionBudget  = 1200
	instructionsBudget = 2500
)

// jargon matches words a model outside the project cannot know.
var jargon = regexp.MustCompile(`(?i)seed|\bturns?\b|CONTRACT|DevResult`)

// readOnlyTools are the tools that change neither the disk nor a session's
// unwritten changes.
var readOnlyTools = []string{"check", "definition", "hover", "probe", "read_file", "read_lines", "references", "search", "symbols"}

// allKinds are every kind a root's drivers can serve.
func allKinds() []engine.Kind {
	return append([]engine.Kind{engine.Format, engine.Lint, engine.Check}, engine.LanguageKinds()...)
}

// listTools lists the tools and the instructions of a server whose drivers
// serve the kinds given.
func listTools(t *testing.T, kinds ...engine.Kind) ([]*sdk.Tool, string) {
	t.Helper()
	has := map[engine.Kind]bool{}
	for _, k := range kinds {
		has[k] = true
	}
	cs := newHarness(t, &fakeDrivers{has: has}, nil).connect(nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	init := cs.InitializeResult()
	if init == nil {
		t.Fatal("no initialize result")
	}
	return res.Tools, init.Instructions
}

func TestToolTextsFitABudgetAndSpeakPlainly(t *testing.T) {
	for _, kinds := range [][]engine.Kind{allKinds(), {engine.Format, engine.Lint, engine.Check}, nil} {
		tools, instr := listTools(t, kinds...)
		if len(instr) > instructionsBudget {
			t.Errorf("instructions: %d bytes, budget %d", len(instr), instructionsBudget)
		}
		if m := jargon.FindString(instr); m != "" {
			t.Errorf("instructions say %q", m)
		}
		t.Logf("kinds %v: instructions %d bytes", kinds, len(instr))
		for _, tl := range tools {
			t.Logf("%s: description %d bytes", tl.Name, len(tl.Description))
			if len(tl.Description) > descriptionBudget {
				t.Errorf("%s (kinds %v): description is %d bytes, budget %d", tl.Name, kinds, len(tl.Description), descriptionBudget)
			}
			in, _ := json.Marshal(tl.InputSchema)
			for what, s := range map[string]string{"description": tl.Description, "input schema": string(in)} {
				if m := jargon.FindString(s); m != "" {
					t.Errorf("%s: %s says %q", tl.Name, what, m)
				}
			}
		}
	}
}

func TestInstructionsGiveAThreeLineGuide(t *testing.T) {
	_, instr := listTools(t, engine.Format, engine.Lint, engine.Check)
	var guide []string
	for _, line := range strings.Split(instr, "\n") {
		if regexp.MustCompile(`^[0-9]\. `).MatchString(line) {
			guide = append(guide, line)
		}
	}
	if len(guide) != 3 {
		t.Fatalf("the instructions have %d numbered guide lines, want 3:\n%s", len(guide), instr)
	}
	for i, want := range []string{"dev_plan", "edit_file", "check"} {
		if !strings.Contains(guide[i], want) {
			t.Errorf("guide line %d does not name %s: %s", i+1, want, guide[i])
		}
	}
}

func TestEveryToolHasATitleAndHonestAnnotations(t *testing.T) {
	tools, _ := listTools(t, allKinds()...)
	if len(tools) != len(ToolNames()) {
		t.Fatalf("%d tools listed, want all %d", len(tools), len(ToolNames()))
	}
	var readOnly []string
	for _, tl := range tools {
		a := tl.Annotations
		switch {
		case tl.Title == "":
			t.Errorf("%s has no title", tl.Name)
		case a == nil:
			t.Errorf("%s has no annotations", tl.Name)
			continue
		case a.Title != tl.Title:
			t.Errorf("%s: annotations title %q, tool title %q", tl.Name, a.Title, tl.Title)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint is not false", tl.Name)
		}
		if a.ReadOnlyHint {
			readOnly = append(readOnly, tl.Name)
		} else if a.DestructiveHint == nil {
			t.Errorf("%s changes things but leaves destructiveHint to its default", tl.Name)
		}
	}
	sort.Strings(readOnly)
	if !slices.Equal(readOnly, readOnlyTools) {
		t.Errorf("read-only tools %v, want %v", readOnly, readOnlyTools)
	}
	// The tools that overwrite or delete file content say so (format
	// rewrites files on disk).
	for _, name := range []string{"dev_plan", "edit", "apply_patch", "write", "format", "lint", "edit_file", "write_file", "discard"} {
		if a := toolNamed(tools, name).Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
			t.Errorf("%s is not marked destructive", name)
		}
	}
}

// Each look-alike pair names its twin and says which takes paths relative
// to the root and which absolute ones, and which works on the in-memory
// workspace and which on the disk.
func TestLookAlikePairsSayHowTheyDiffer(t *testing.T) {
	tools, _ := listTools(t, engine.Format, engine.Lint, engine.Check)
	for _, pair := range [][2]string{{"edit", "edit_file"}, {"read_lines", "read_file"}, {"write", "write_file"}} {
		step, file := toolNamed(tools, pair[0]), toolNamed(tools, pair[1])
		for _, c := range []struct {
			tl      *sdk.Tool
			twin    string
			mustSay []string
		}{
			{step, file.Name, []string{"relative to the root", "in-memory"}},
			{file, step.Name, []string{"absolute", "on disk"}},
		} {
			d := c.tl.Description
			if !strings.Contains(d, "use "+c.twin+" ") && !strings.Contains(d, "Use "+c.twin+" ") {
				t.Errorf("%s does not say when to use %s instead: %s", c.tl.Name, c.twin, d)
			}
			for _, s := range c.mustSay {
				if !strings.Contains(d, s) {
					t.Errorf("%s does not say %q: %s", c.tl.Name, s, d)
				}
			}
		}
	}
}

func toolNamed(tools []*sdk.Tool, name string) *sdk.Tool {
	for _, tl := range tools {
		if tl.Name == name {
			return tl
		}
	}
	return &sdk.Tool{Name: name}
}

// The language tools say how to point at code: 1-based lines and
// characters, symbol (a name or Type.Method) instead of columns, and what
// an ambiguous symbol does; rename and code_actions say they change the
// workspace only and that rename -> check -> write is the safe way.
func TestLanguageToolsSayHowToPointAndWhatTheyWrite(t *testing.T) {
	tools, _ := listTools(t, allKinds()...)
	for _, name := range []string{"definition", "references", "hover", "rename"} {
		d := toolNamed(tools, name).Description
		for _, s := range []string{"1-based lines and characters", "symbol", "Type.Method", "saves knowing columns", "ambiguous symbol fails, listing the candidates"} {
			if !strings.Contains(d, s) {
				t.Errorf("%s does not say %q: %s", name, s, d)
			}
		}
	}
	for _, name := range []string{"symbols", "code_actions"} {
		if d := toolNamed(tools, name).Description; !strings.Contains(d, "1-based") {
			t.Errorf("%s does not say positions are 1-based: %s", name, d)
		}
	}
	for _, name := range []string{"rename", "code_actions"} {
		d := toolNamed(tools, name).Description
		for _, s := range []string{"changes the workspace only; nothing is written until write (or dev_plan with " + name + ", check, write)", name + " -> check -> write"} {
			if !strings.Contains(d, s) {
				t.Errorf("%s does not say %q: %s", name, s, d)
			}
		}
		if a := toolNamed(tools, name).Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s: annotations %+v, want not read-only and not destructive", name, a)
		}
	}
}

// search says what it searches and what it skips, how a pattern matches,
// and that it needs no language server: it is listed without drivers.
func TestSearchToolSaysWhatItSearches(t *testing.T) {
	tools, instr := listTools(t)
	d := toolNamed(tools, "search").Description
	for _, s := range []string{"unwritten changes", "as the disk holds it", ".gitignore", "version control", "binary", "2 MiB", "literal", "RE2", "one line at a time", "path:line:column", "past 100", "omitted", "relative to the root", "Changes nothing"} {
		if !strings.Contains(d, s) {
			t.Errorf("search does not say %q: %s", s, d)
		}
	}
	if !strings.Contains(instr, "search") {
		t.Errorf("the instructions do not name search:\n%s", instr)
	}
}
