package engine

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// rootCaps records each request and answers with one ok driver status
// for the files whose extension it covers (ext; empty: none), and none
// when no requested file is of it.
type rootCaps struct {
	ext  string
	reqs []Request
}

func (c *rootCaps) Has(Kind) bool { return true }

func (c *rootCaps) Covers(p string) bool { return path.Ext(p) == c.ext }

func (c *rootCaps) Run(_ context.Context, req Request) (*Response, error) {
	c.reqs = append(c.reqs, req)
	targets := req.Paths
	if targets == nil {
		targets = slices.Collect(maps.Keys(req.Files))
	}
	resp := &Response{}
	for _, p := range targets {
		if c.Covers(p) {
			resp.Drivers = []DriverStatus{{Driver: "fake", Status: StatusOK}}
		} else {
			resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Path: p, Line: 1, Column: 1, Severity: SeverityInfo, Source: "devbroker", Message: "no driver"})
		}
	}
	return resp, nil
}

// targets lists what a request is about, sorted.
func targets(req Request) []string {
	if req.Paths != nil {
		return slices.Sorted(slices.Values(req.Paths))
	}
	return slices.Sorted(maps.Keys(req.Files))
}

// rootTree has covered files at the root and below, and covered files
// the walk passes over (testdata, vendor, version control).
var rootTree = map[string]string{
	"a.go":                "package a\n",
	"sub/b.go":            "package sub\n",
	"notes.txt":           "text\n",
	"testdata/t.go":       "package t\n",
	"sub/vendor/v/v.go":   "package v\n",
	".git/hooks/x.go":     "package x\n",
	"sub/testdata/x/y.go": "package y\n",
}

// A format, lint or check without paths in a plan that names none works on
// the root's covered files as the command line selects them, and on what
// the workspace holds; with the plan's paths, on the workspace alone.
func TestNoPathsWorksOnTheRoot(t *testing.T) {
	for _, step := range []string{"format", "lint", "check"} {
		t.Run(step, func(t *testing.T) {
			caps := &rootCaps{ext: ".go"}
			e, _ := setup(t, rootTree, Options{Capabilities: caps})
			r := run(t, e, `{"paths": [], "ops": [{"step": "`+step+`", "args": {}}]}`)
			if !r.OK {
				t.Fatalf("%s without paths: %+v", step, r.Error)
			}
			if got, want := targets(caps.reqs[0]), []string{"a.go", "sub/b.go"}; !slices.Equal(got, want) {
				t.Fatalf("%s without paths worked on %v, want %v", step, got, want)
			}
			// The command line selects the same files.
			if cli, _ := SelectFiles(e.FS(), caps.Covers, nil); !slices.Equal(cli, []string{"a.go", "sub/b.go"}) {
				t.Fatalf("SelectFiles = %v", cli)
			}

			// Files the workspace holds are worked on too, unwritten
			// changes and files the walk passes over included; a
			// file deleted in the workspace is not brought back.
			run(t, e, `{"paths": ["testdata/t.go", "notes.txt", "sub/b.go"], "ops": [
				{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Add File: new.go\n+package a\n*** Delete File: sub/b.go\n*** End Patch"}}]}`)
			caps.reqs = nil
			r = run(t, e, `{"paths": [], "ops": [{"step": "`+step+`", "args": {}}]}`)
			if !r.OK {
				t.Fatalf("%s without paths: %+v", step, r.Error)
			}
			// A lint or check over changed content asks about its
			// baseline first: the disk's content, where new.go is not
			// and sub/b.go is (not asked about: no finding can be in a
			// file the workspace deleted).
			live := caps.reqs[len(caps.reqs)-1]
			if step != "format" {
				if len(caps.reqs) != 2 {
					t.Fatalf("%s over changed content asked %d times, want the baseline then the answer", step, len(caps.reqs))
				}
				base := caps.reqs[0]
				if got, want := targets(base), []string{"a.go", "notes.txt", "testdata/t.go"}; !slices.Equal(got, want) {
					t.Errorf("%s's baseline worked on %v, want %v", step, got, want)
				}
				if len(base.Changed) != 0 || len(base.Deleted) != 0 || base.Files["new.go"] != nil || base.Files["sub/b.go"] == nil {
					t.Errorf("%s's baseline: changed %v, deleted %v, files %v: want the disk's content", step, base.Changed, base.Deleted, slices.Sorted(maps.Keys(base.Files)))
				}
			}
			if got, want := targets(live), []string{"a.go", "new.go", "notes.txt", "testdata/t.go"}; !slices.Equal(got, want) {
				t.Fatalf("%s without paths, with a workspace: worked on %v, want %v", step, got, want)
			}
			if !slices.Equal(live.Deleted, []string{"sub/b.go"}) {
				t.Errorf("deleted = %v, want sub/b.go still deleted", live.Deleted)
			}

			// The plan names paths: the workspace alone, as before.
			e2, _ := setup(t, rootTree, Options{Capabilities: caps})
			caps.reqs = nil
			run(t, e2, `{"paths": ["a.go"], "ops": [{"step": "`+step+`", "args": {}}]}`)
			if got := targets(caps.reqs[0]); !slices.Equal(got, []string{"a.go"}) {
				t.Fatalf("%s in a plan with paths worked on %v, want [a.go]", step, got)
			}
		})
	}
}

// An answer that looked at no file is not ok, and says why: an empty
// root, a root whose files no language covers, files no driver served.
func TestNothingLookedAtIsNotOK(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		plan  string
		want  []string
		asked bool // whether the capabilities were asked
	}{
		{"empty root", map[string]string{}, `{"paths": [], "ops": [{"step": "check", "args": {}}]}`,
			[]string{"check looked at no file", "no file under the root is one a configured language covers", "pass paths"}, false},
		{"nothing covered", map[string]string{"notes.txt": "x\n", "testdata/a.go": "package a\n"}, `{"paths": [], "ops": [{"step": "lint", "args": {}}]}`,
			[]string{"lint looked at no file", "testdata", "pass paths"}, false},
		{"no driver served", map[string]string{"a.txt": "x\n", "b.txt": "y\n", "c.txt": "z\n", "d.txt": "w\n"}, `{"paths": ["*.txt"], "ops": [{"step": "format", "args": {}}]}`,
			[]string{"format looked at no file: no configured formatter serves a.txt, b.txt, c.txt and 1 more", "pass paths"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			caps := &rootCaps{ext: ".go"}
			e, _ := setup(t, c.files, Options{Capabilities: caps})
			r := run(t, e, c.plan)
			wantError(t, r, fault.Unchecked, c.want...)
			if r.OK || r.Error.Retryable {
				t.Errorf("ok %v, retryable %v: want not ok, not retryable", r.OK, r.Error.Retryable)
			}
			if asked := len(caps.reqs) > 0; asked != c.asked {
				t.Errorf("capabilities asked: %v, want %v", asked, c.asked)
			}
		})
	}
}

// A root larger than the workspace's limits fails a step without paths
// naming the limit, the count, and what to do; nothing is acquired.
func TestNoPathsOverTheLimits(t *testing.T) {
	caps := &rootCaps{ext: ".go"}
	e, _ := setup(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n", "c.go": "package a\n"}, Options{Capabilities: caps, Limits: workspace.Limits{MaxFiles: 2}})
	r := run(t, e, `{"paths": [], "ops": [{"step": "check", "args": {}}]}`)
	wantError(t, r, fault.Bounds, "check without paths works on every file of the root a configured language covers (3 files)", "limits.max_files", "pass paths")
	if len(caps.reqs) != 0 || e.Workspace().Len() != 0 {
		t.Errorf("asked %d times, workspace holds %d files: want nothing", len(caps.reqs), e.Workspace().Len())
	}
	if !strings.Contains(r.Error.Message, "or pass paths naming the files to check") {
		t.Errorf("message %q", r.Error.Message)
	}
}

// benchNoPaths measures a check without paths on a root of n Go files
// (about 1 KiB each, 50 to a directory), warm: the engine already holds
// them from an earlier such check, as a session's second check does. The
// capabilities answer at once, so this is the engine's cost alone: the
// walk, reading every file again and comparing it with the workspace's.
// withPaths measures a check of one file instead, for the ratio.
func benchNoPaths(b *testing.B, n int, withPaths bool) {
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"}
	for i := range n {
		files[fmt.Sprintf("p%03d/f%d.go", i/50, i)] = fmt.Sprintf("package p%03d\n\n", i/50) + strings.Repeat("// a comment line of filler text\n", 32)
	}
	caps := &rootCaps{ext: ".go"}
	lim := workspace.Limits{MaxFiles: n + 10, MaxTotalBytes: 1 << 30}
	e, _ := setup(b, files, Options{Capabilities: caps, Limits: lim})
	src := `{"paths": [], "ops": [{"step": "check", "args": {}}]}`
	if withPaths {
		src = `{"paths": ["p000/f0.go"], "ops": [{"step": "check", "args": {}}]}`
	}
	p, err := ParsePlan([]byte(src))
	if err != nil {
		b.Fatal(err)
	}
	if r := e.Run(context.Background(), p); !r.OK { // warm
		b.Fatal(r.Error)
	}
	b.ResetTimer()
	for b.Loop() {
		caps.reqs = caps.reqs[:0]
		if r := e.Run(context.Background(), p); !r.OK {
			b.Fatal(r.Error)
		}
	}
}

func BenchmarkCheckWithoutPaths1000(b *testing.B)  { benchNoPaths(b, 1000, false) }
func BenchmarkCheckWithoutPaths16000(b *testing.B) { benchNoPaths(b, 16000, false) }
func BenchmarkCheckOneFileIn1000(b *testing.B)     { benchNoPaths(b, 1000, true) }

// BenchmarkFloorReadAll1000 is the floor of a check without paths on
// 1,000 files: a bare filepath.WalkDir and os.ReadFile of each, in the
// same tree as BenchmarkCheckWithoutPaths1000.
func BenchmarkFloorReadAll1000(b *testing.B) {
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("p%03d/f%d.go", i/50, i)] = fmt.Sprintf("package p%03d\n\n", i/50) + strings.Repeat("// a comment line of filler text\n", 32)
	}
	_, root := setup(b, files, Options{})
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			n += len(data)
			return err
		})
		if err != nil || n == 0 {
			b.Fatal(err)
		}
	}
}
