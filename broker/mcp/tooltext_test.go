package mcp

// The tool texts are read by a model that has never seen devbroker: these
// tests list the tools through a real MCP client and hold every text to a
// size budget, every tool to a title and honest annotations, and the three
// look-alike pairs to saying how they differ.

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
)

// The size budgets, in bytes, of a tool's description (dev_plan's, which
// describes every step, has its own) and of the server's instructions.
const (
	descriptionBudget  = 1200
	planBudget         = 2400
	instructionsBudget = 2500
)

// jargon matches words a model outside the project cannot know.
var jargon = regexp.MustCompile(`(?i)seed|\bturns?\b|CONTRACT|DevResult`)

// readOnlyTools are the tools that change neither the disk nor a session's
// unwritten changes.
var readOnlyTools = []string{"check", "definition", "hover", "probe", "read_file", "read_lines", "references", "search", "symbols"}

// allKinds are every kind a root's drivers can serve.
func allKinds() []engine.Kind {
	return append(engine.CapabilityKinds(), engine.LanguageKinds()...)
}

// listTools lists the tools and the instructions of a server with the
// full profile whose drivers serve the kinds given.
func listTools(t *testing.T, kinds ...engine.Kind) ([]*sdk.Tool, string) {
	t.Helper()
	return listToolsIn(t, ProfileFull, kinds...)
}

// listToolsIn lists the tools and the instructions of a server with the
// profile p whose drivers serve the kinds given.
func listToolsIn(t *testing.T, p Profile, kinds ...engine.Kind) ([]*sdk.Tool, string) {
	t.Helper()
	has := map[engine.Kind]bool{}
	for _, k := range kinds {
		has[k] = true
	}
	cs := newHarnessWith(t, p, &fakeDrivers{has: has}, nil).connect(nil)
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
	for _, p := range profiles {
		for _, kinds := range [][]engine.Kind{allKinds(), {engine.Format, engine.Lint, engine.Check}, nil} {
			tools, instr := listToolsIn(t, p, kinds...)
			checkTexts(t, p, kinds, tools, instr)
		}
	}
}

func checkTexts(t *testing.T, p Profile, kinds []engine.Kind, tools []*sdk.Tool, instr string) {
	t.Helper()
	{
		if len(instr) > instructionsBudget {
			t.Errorf("%s: instructions: %d bytes, budget %d", p, len(instr), instructionsBudget)
		}
		if m := jargon.FindString(instr); m != "" {
			t.Errorf("%s: instructions say %q", p, m)
		}
		t.Logf("%s, kinds %v: instructions %d bytes", p, kinds, len(instr))
		for _, tl := range tools {
			t.Logf("%s: description %d bytes", tl.Name, len(tl.Description))
			budget := descriptionBudget
			if tl.Name == "dev_plan" {
				budget = planBudget
			}
			if len(tl.Description) > budget {
				t.Errorf("%s: %s (kinds %v): description is %d bytes, budget %d", p, tl.Name, kinds, len(tl.Description), budget)
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

// The instructions give a three-line guide that names the profile's
// tools: dev_plan; edit_file for a quick change on disk, or the client's
// own file tools where the profile has no edit_file; and check.
func TestInstructionsGiveAThreeLineGuide(t *testing.T) {
	for _, c := range []struct {
		p     Profile
		guide []string
	}{
		{ProfileFull, []string{"dev_plan", "edit_file", "check"}},
		{ProfileDefault, []string{"dev_plan", "edit_file", "check"}},
		{ProfileLean, []string{"dev_plan", "your own tools", "check"}},
	} {
		_, instr := listToolsIn(t, c.p, engine.Format, engine.Lint, engine.Check)
		var guide []string
		for _, line := range strings.Split(instr, "\n") {
			if regexp.MustCompile(`^[0-9]\. `).MatchString(line) {
				guide = append(guide, line)
			}
		}
		if len(guide) != 3 {
			t.Fatalf("%s: the instructions have %d numbered guide lines, want 3:\n%s", c.p, len(guide), instr)
		}
		for i, want := range c.guide {
			if !strings.Contains(guide[i], want) {
				t.Errorf("%s: guide line %d does not name %s: %s", c.p, i+1, want, guide[i])
			}
		}
	}
}

// No text a profile's client reads names a tool the profile does not
// offer as one: edit_file, read_file and write_file are not named where
// they are not offered, and a step without its own tool is named as a
// step (of dev_plan), never as a tool to call.
func TestTextsNameOnlyOfferedTools(t *testing.T) {
	for _, p := range profiles {
		tools, instr := listToolsIn(t, p, allKinds()...)
		texts := map[string]string{"instructions": instr}
		for _, tl := range tools {
			in, _ := json.Marshal(tl.InputSchema)
			texts[tl.Name] = tl.Description + "\n" + string(in)
		}
		for _, name := range ToolNames() {
			if p.Offers(name) {
				continue
			}
			as := regexp.MustCompile(`\b` + name + `\b`)
			if _, step := engine.LookupStep(engine.StepName(name)); step {
				as = regexp.MustCompile(`(?i)\b(use|call) ` + name + `\b|\b` + name + ` tool\b|\bthe tool ` + name + `\b`)
			}
			for where, text := range texts {
				if m := as.FindString(text); m != "" {
					t.Errorf("%s: %s names %s, which the profile does not offer as a tool (%q):\n%s", p, where, name, m, text)
				}
			}
		}
	}
}

func TestEveryToolHasATitleAndHonestAnnotations(t *testing.T) {
	for _, p := range profiles {
		checkAnnotations(t, p)
	}
}

func checkAnnotations(t *testing.T, p Profile) {
	t.Helper()
	tools, _ := listToolsIn(t, p, allKinds()...)
	if len(tools) != len(p.Tools()) {
		t.Fatalf("%s: %d tools listed, want all %d", p, len(tools), len(p.Tools()))
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
	var want []string
	for _, name := range readOnlyTools {
		if p.Offers(name) {
			want = append(want, name)
		}
	}
	if !slices.Equal(readOnly, want) {
		t.Errorf("%s: read-only tools %v, want %v", p, readOnly, want)
	}
	// The tools that overwrite or delete file content say so (format
	// rewrites files on disk).
	for _, name := range []string{"dev_plan", "edit", "apply_patch", "write", "format", "lint", "edit_file", "write_file", "discard"} {
		if !p.Offers(name) {
			continue
		}
		if a := toolNamed(tools, name).Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
			t.Errorf("%s: %s is not marked destructive", p, name)
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
	// Where edit is no tool (the default profile), edit_file names
	// dev_plan's edit step instead, and how it differs.
	tools, _ = listToolsIn(t, ProfileDefault, engine.Format, engine.Lint, engine.Check)
	d := toolNamed(tools, "edit_file").Description
	for _, s := range []string{"dev_plan's edit step", "relative to the root", "in-memory", "absolute", "on disk"} {
		if !strings.Contains(d, s) {
			t.Errorf("default: edit_file does not say %q: %s", s, d)
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
	for _, p := range []Profile{ProfileFull, ProfileLean} {
		checkLanguageTexts(t, p)
	}
}

func checkLanguageTexts(t *testing.T, p Profile) {
	t.Helper()
	tools, _ := listToolsIn(t, p, allKinds()...)
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
		for _, s := range []string{"changes the workspace only: nothing reaches disk until a write step", "dev_plan with " + name + ", check, write is the safe way", name + " -> check -> write"} {
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
	for _, p := range []Profile{ProfileFull, ProfileDefault} {
		tools, instr := listToolsIn(t, p)
		d := toolNamed(tools, "search").Description
		for _, s := range []string{"unwritten changes", "as the disk holds it", ".gitignore", "version control", "binary", "2 MiB", "literal", "RE2", "one line at a time", "path:line:column", "past 100", "omitted", "relative to the root", "Changes nothing"} {
			if !strings.Contains(d, s) {
				t.Errorf("%s: search does not say %q: %s", p, s, d)
			}
		}
		if !strings.Contains(instr, "search") {
			t.Errorf("%s: the instructions do not name search:\n%s", p, instr)
		}
	}
}

// A refusal names only what the client has: edit_file's "read it first"
// (a change to a file this session has not seen) names the view command,
// which every profile that offers edit_file has, and no tool the profile
// does not offer (read_file is only in the full profile).
func TestRefusalsNameOnlyOfferedTools(t *testing.T) {
	for _, p := range profiles {
		if !p.Offers("edit_file") {
			continue
		}
		h := newHarnessWith(t, p, nil, map[string]string{"a.txt": "one\n"})
		cs := h.connect(nil)
		abs := filepath.Join(h.root, "a.txt")
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "one", "new_str": "1"}},
			{"edit_file", map[string]any{"command": "insert", "file_path": abs, "insert_line": 0, "new_str": "zero\n"}},
		}
		if p.Offers("write_file") {
			calls = append(calls, struct {
				tool string
				args map[string]any
			}{"write_file", map[string]any{"file_path": abs, "content": "x\n"}})
		}
		for _, c := range calls {
			res := call(t, cs, c.tool, c.args)
			got := text(res)
			if !res.IsError || !strings.Contains(got, "before editing it: view it first") {
				t.Errorf("%s: %s on a file not read: %q", p, c.tool, got)
			}
			for _, name := range ToolNames() {
				if !p.Offers(name) && regexp.MustCompile(`\b`+name+`\b`).MatchString(got) {
					t.Errorf("%s: %s's refusal names %s, which the profile does not offer: %q", p, c.tool, name, got)
				}
			}
		}
		if h.read("a.txt") != "one\n" {
			t.Errorf("%s: a refused change reached the disk: %q", p, h.read("a.txt"))
		}
	}
}

// The tool texts say what a change did, each where a model reads it: the
// check and lint tools that each finding over changed content says
// whether the change introduced it; format that only "changed" formats the
// lines changed and that formatted carries the diff; write that a change
// on disk on other lines is merged; dev_plan, in every profile, all of it
// (its fail_on introduced, write's merge, format's only).
func TestToolTextsSayWhatTheChangeDid(t *testing.T) {
	want := map[string][]string{
		"check":  {"introduced: true (your change caused it)", "baseline"},
		"lint":   {"introduced: true (your change caused it)", "baseline"},
		"format": {`only: "changed"`, "just the lines you changed", "diff"},
		"write":  {"merged", "conflict", "merge is false"},
	}
	tools, _ := listTools(t, allKinds()...)
	for _, tl := range tools {
		for _, w := range want[tl.Name] {
			if !strings.Contains(tl.Description, w) {
				t.Errorf("%s's description does not say %q:\n%s", tl.Name, w, tl.Description)
			}
		}
		delete(want, tl.Name)
	}
	for name := range want {
		t.Errorf("no %s tool in the full profile", name)
	}
	for _, p := range profiles {
		tools, _ := listToolsIn(t, p, allKinds()...)
		i := slices.IndexFunc(tools, func(tl *sdk.Tool) bool { return tl.Name == "dev_plan" })
		if i < 0 {
			t.Fatalf("%s: no dev_plan", p)
		}
		in, _ := json.Marshal(tools[i].InputSchema)
		all := tools[i].Description + string(in)
		for _, w := range []string{"fail_on", "introduced: only errors the session introduced stop it", "is merged if that change touches other lines", "merge: false never merges", `only "changed": just the lines you changed`, "formatted has each file's diff"} {
			if !strings.Contains(all, w) {
				t.Errorf("%s: dev_plan's description and input schema do not say %q", p, w)
			}
		}
	}
}
