package lspdriver_test

import (
	"github.com/devbroker/devbroker/capabilities/lspdriver"

	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// confinedSecret is a header outside the root whose macros are a fake
// secret.
const confinedSecret = "#define KEY \"SECRETK00MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\"\n#define KEYNUM 0\n"

// TestClangdConfined: in a root the user has not trusted, clangd is not
// sent a file that includes one outside the root (directly, through a
// header of the root, or through compile_flags.txt's -I), so neither a
// check's diagnostics (the failed assertion would print the macro's
// value) nor a hover (the macro's definition) carries the file's text:
// those answers are unchecked and say why and how to trust the root;
// the other files of the same check are checked, and the probe's report
// names what is withheld. Trusted, the same root is checked as before
// (and quotes the secret: the test proves something).
func TestClangdConfined(t *testing.T) {
	if _, err := exec.LookPath("clangd"); err != nil {
		t.Skip("no clangd on PATH (apt-get install clangd)")
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, outside, map[string]string{"secret.h": confinedSecret})
	files := map[string]string{
		"x/x.c":               "#include \"../../outside/secret.h\"\n_Static_assert(KEYNUM, KEY);\nconst char *k = KEY;\n",
		"h/h.c":               "#include \"h.h\"\n_Static_assert(KEYNUM, KEY);\n",
		"h/h.h":               "#include \"../../outside/secret.h\"\n",
		"y/y.c":               "#include <stdio.h>\nint f(void) { int n = \"not an int\"; return n; }\n",
		"f/f.c":               "#include <secret.h>\n_Static_assert(KEYNUM, KEY);\n",
		"f/compile_flags.txt": "-I../../outside\n",
	}
	testtree.Write(t, root, files)
	load := func(opts drivers.Options) *capabilities.Set {
		ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
		defer cancel()
		set, _, err := drivers.LoadWith(ctx, root, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = set.Close() })
		return set
	}
	run := func(set *capabilities.Set, req engine.Request) *engine.Response {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
		defer cancel()
		resp, err := set.Run(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	check := func(set *capabilities.Set) *engine.Response {
		req := engine.Request{Kind: engine.Check, Root: root, Files: map[string]*text.Doc{}}
		for p, c := range files {
			if strings.HasSuffix(p, ".c") {
				req.Files[p] = text.FromString(c)
			}
		}
		return run(set, req)
	}
	quoted := func(what string, v any) {
		t.Helper()
		data, _ := json.Marshal(v)
		if strings.Contains(string(data), "SECRETK0") {
			t.Errorf("%s quotes the file outside the root: %s", what, data)
		}
	}

	set := load(drivers.Options{})
	resp := check(set)
	quoted("check", resp)
	sawY := false
	for _, d := range resp.Diagnostics {
		switch d.Path {
		case "y/y.c":
			sawY = true
		default:
			t.Errorf("a diagnostic of a withheld file: %+v", d)
		}
	}
	if !sawY {
		t.Errorf("y/y.c, which includes only the system's headers, was not checked: %+v", resp.Diagnostics)
	}
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusUnchecked ||
		!strings.Contains(resp.Drivers[0].Message, "f/f.c, h/h.c, x/x.c not checked") ||
		!strings.Contains(resp.Drivers[0].Message, "devbroker trust "+root) {
		t.Errorf("the check's status: %+v", resp.Drivers)
	}

	hover := run(set, engine.Request{Kind: engine.Hover, Root: root, Files: map[string]*text.Doc{"x/x.c": text.FromString(files["x/x.c"])},
		Query: &engine.Query{Path: "x/x.c", Line: 3, Column: 17}})
	quoted("hover", hover)
	if len(hover.Drivers) != 1 || hover.Drivers[0].Status != engine.StatusUnchecked || hover.Drivers[0].Language != "c" ||
		!strings.Contains(hover.Drivers[0].Message, `x/x.c:1: #include "../../outside/secret.h" may read `+filepath.Join(outside, "secret.h")) || hover.Hover != "" {
		t.Errorf("hover: %+v %q", hover.Drivers, hover.Hover)
	}

	if rep := set.Report(); rep.Drivers != nil {
		for _, d := range rep.Drivers {
			if d.Withheld != "" {
				t.Errorf("a request's report scans the root: %s: %q", d.Name, d.Withheld)
			}
		}
	}
	rep := set.ReportWithheld(context.Background())
	quoted("the report", rep)
	withheld := ""
	for _, d := range rep.Drivers {
		if d.Name == "clangd" {
			withheld = d.Withheld
		}
	}
	if !strings.Contains(withheld, "(and 3 more files)") {
		t.Errorf("the report's clangd line: %q", withheld)
	}

	// Trusted: as before.
	hash, err := configs.FileHash(root)
	if err != nil {
		t.Fatal(err)
	}
	trusted := load(drivers.Options{Trust: trust.Pinned(map[string]string{root: hash}, nil)})
	resp = check(trusted)
	data, _ := json.Marshal(resp)
	if !strings.Contains(string(data), "SECRETK0") || resp.Drivers[0].Status != engine.StatusOK {
		t.Errorf("trusted, the check does not report the failed assertions as before: %s", data)
	}
}
