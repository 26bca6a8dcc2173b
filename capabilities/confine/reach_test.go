package confine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// reachRoot writes a root with files beside a directory outside it that
// holds secret.h, and returns the root's FS and the outside directory.
func reachRoot(t *testing.T, files map[string]string) (*rootfs.FS, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, outside, map[string]string{"secret.h": secretHeader, "flags.rsp": "-I.\n"})
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for p, content := range files {
		content = strings.ReplaceAll(content, "OUTSIDE", outside)
		testtree.Write(t, root, map[string]string{p: content})
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return fsys, outside
}

// diskDocs are the named files at their disk content.
func diskDocs(t *testing.T, fsys *rootfs.FS, paths ...string) []Doc {
	t.Helper()
	var out []Doc
	for _, p := range paths {
		data, _, err := fsys.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Doc{Path: p, Content: string(data)})
	}
	return out
}

// TestReach: every way a file clangd opens can make it read a file
// outside the root is found, and named by the file and line that reach
// out; files that include only the root's and the system's headers are
// not held back.
func TestReach(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		links map[string]string // link → target
		args  []string          // the server's
		doc   string
		want  string // in the reason; "" for none
	}{
		{name: "relative", files: map[string]string{"x.c": "#include \"../outside/secret.h\"\n"}, doc: "x.c", want: `x.c:1: #include "../outside/secret.h" may read`},
		{name: "absolute", files: map[string]string{"x.c": "int a;\n#include \"OUTSIDE/secret.h\"\n"}, doc: "x.c", want: "x.c:2: #include"},
		{name: "through a header", files: map[string]string{"src/a.c": "#include \"../inc/h.h\"\n", "inc/h.h": "\n\n#include \"../../outside/secret.h\"\n"}, doc: "src/a.c", want: "inc/h.h:3: #include"},
		{name: "a symlinked directory", files: map[string]string{"x.c": "#include \"inc/secret.h\"\n"}, links: map[string]string{"inc": "../outside"}, doc: "x.c", want: "x.c:1: #include \"inc/secret.h\" may read"},
		{name: "dot-dot after a link", files: map[string]string{"d/x.c": "#include \"lnk/../outside/secret.h\"\n"}, links: map[string]string{"d/lnk": ".."}, doc: "d/x.c", want: "d/x.c:1:"},
		{name: "a macro", files: map[string]string{"x.c": "#define H \"a.h\"\n#include H\n"}, doc: "x.c", want: "x.c:2: an #include names its file with a macro"},
		{name: "a comment before the hash", files: map[string]string{"x.c": "/* a\n */ #include \"../outside/secret.h\"\n"}, doc: "x.c", want: "x.c:2:"},
		{name: "an angle name up from the system's directories", files: map[string]string{"x.c": "#include <../../../../../../../../../../OUTSIDE/secret.h>\n"}, doc: "x.c", want: "x.c:1:"},
		{name: "system and own headers", files: map[string]string{"x.c": "#include <stdio.h>\n#include \"own.h\"\n#include \"missing.h\"\n", "own.h": "#include <string.h>\n"}, doc: "x.c"},
		{name: "compile_flags.txt out", files: map[string]string{"compile_flags.txt": "-I../outside\n", "x.c": "#include <stdio.h>\n"}, doc: "x.c", want: "compile_flags.txt: -I../outside names"},
		{name: "compile_flags.txt in", files: map[string]string{"compile_flags.txt": "-Iinclude\n", "include/h.h": "#include \"../../outside/secret.h\"\n", "src/x.c": "#include <h.h>\n"}, doc: "src/x.c", want: "include/h.h:1:"},
		{name: "compile_commands.json -include", files: map[string]string{"build/compile_commands.json": `[{"directory": "/", "file": "x.c", "arguments": ["cc", "-include", "OUTSIDE/secret.h", "-c", "x.c"]}]`, "x.c": "int x;\n"}, doc: "x.c", want: "-include names"},
		{name: "compile_commands.json command", files: map[string]string{"compile_commands.json": `[{"directory": ".", "file": "x.c", "command": "/usr/bin/cc -I ../outside -c x.c"}]`, "x.c": "int x;\n"}, doc: "x.c", want: "-I names"},
		{name: "a response file", files: map[string]string{"compile_flags.txt": "@flags.rsp\n", "flags.rsp": "-I'../outside'\n", "x.c": "int x;\n"}, doc: "x.c", want: "flags.rsp: -I../outside names"},
		{name: "a response file outside", files: map[string]string{"compile_flags.txt": "@../outside/flags.rsp\n", "x.c": "int x;\n"}, doc: "x.c", want: "reads the response file"},
		{name: "an -include inside that includes out", files: map[string]string{"compile_flags.txt": "-include\nfirst.h\n", "first.h": "#include \"../outside/secret.h\"\n", "x.c": "int x;\n"}, doc: "x.c", want: "first.h:1:"},
		{name: "modules", files: map[string]string{"compile_flags.txt": "-fmodules\n", "x.c": "int x;\n"}, doc: "x.c", want: "turns modules on"},
		{name: "query-driver", files: map[string]string{"x.c": "int x;\n"}, args: []string{"--query-driver=/usr/bin/**"}, doc: "x.c", want: "--query-driver"},
		{name: "compile-commands-dir outside", files: map[string]string{"x.c": "int x;\n"}, args: []string{"--compile-commands-dir=../outside"}, doc: "x.c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys, _ := reachRoot(t, c.files)
			for link, target := range c.links {
				if err := os.Symlink(target, filepath.Join(fsys.Root(), filepath.FromSlash(link))); err != nil {
					t.Fatal(err)
				}
			}
			got := Reach(context.Background(), fsys, Server{Args: c.args}, diskDocs(t, fsys, c.doc))
			switch {
			case c.want == "" && got != "":
				t.Errorf("Reach = %q, want nothing", got)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("Reach = %q, want %q in it", got, c.want)
			case strings.Contains(got, secretMark):
				t.Errorf("Reach quotes the file: %q", got)
			}
		})
	}
}

// TestReachCompileCommandsAboveTheRoot: clangd looks for compile commands
// above the root when none is under it, and would read them.
func TestReachCompileCommandsAboveTheRoot(t *testing.T) {
	fsys, outside := reachRoot(t, map[string]string{"sub/x.c": "int x;\n"})
	base := filepath.Dir(outside)
	testtree.Write(t, base, map[string]string{"compile_flags.txt": "-DX\n"})
	got := Reach(context.Background(), fsys, Server{}, diskDocs(t, fsys, "sub/x.c"))
	if want := "compile commands " + filepath.Join(base, "compile_flags.txt") + ", outside the root"; !strings.Contains(got, want) {
		t.Errorf("Reach = %q, want %q", got, want)
	}
	// A --compile-commands-dir outside the root that holds them.
	testtree.Write(t, outside, map[string]string{"compile_commands.json": "[]"})
	if got := Reach(context.Background(), fsys, Server{Args: []string{"--compile-commands-dir", outside}}, diskDocs(t, fsys, "sub/x.c")); !strings.Contains(got, filepath.Join(outside, "compile_commands.json")+", outside the root") {
		t.Errorf("--compile-commands-dir %s: Reach = %q", outside, got)
	}
	// The root's own compile commands stop the search.
	testtree.Write(t, fsys.Root(), map[string]string{"compile_flags.txt": "-DY\n"})
	if got := Reach(context.Background(), fsys, Server{}, diskDocs(t, fsys, "sub/x.c")); got != "" {
		t.Errorf("with the root's own compile_flags.txt: Reach = %q", got)
	}
}

// TestReachWorkspaceContent: a file is judged at the content the server
// is sent, and its includes at theirs (a document sent is read from its
// content, not from the disk).
func TestReachWorkspaceContent(t *testing.T) {
	fsys, _ := reachRoot(t, map[string]string{"x.c": "#include \"h.h\"\n", "h.h": "int h;\n"})
	bad := Doc{Path: "h.h", Content: "#include \"../outside/secret.h\"\n"}
	for _, docs := range [][]Doc{
		{{Path: "x.c", Content: "#include \"h.h\"\n"}, bad},
		{bad, {Path: "x.c", Content: "#include \"h.h\"\n"}},
	} {
		s := NewScan(context.Background(), fsys, Server{}, docs)
		if got := s.File("x.c"); !strings.Contains(got, "h.h:1:") {
			t.Errorf("x.c includes the changed h.h: File = %q", got)
		}
	}
	testtree.Write(t, fsys.Root(), map[string]string{"h.h": "#include \"../outside/secret.h\"\n"})
	if got := Reach(context.Background(), fsys, Server{}, []Doc{{Path: "x.c", Content: "#include \"h.h\"\n"}, {Path: "h.h", Content: "int h;\n"}}); got != "" {
		t.Errorf("the disk's h.h reaches out, the content sent does not: Reach = %q", got)
	}
}

// TestSurvey: the probe's survey names the first file that reaches out
// and counts the others.
func TestSurvey(t *testing.T) {
	fsys, _ := reachRoot(t, map[string]string{
		"a.c":    "#include \"../outside/secret.h\"\n",
		"b/b.cc": "#include \"../../outside/secret.h\"\n",
		"ok.c":   "#include <stdio.h>\n",
		"n.txt":  "#include \"../outside/secret.h\"\n",
	})
	got := Survey(context.Background(), fsys, Server{})
	if !strings.HasPrefix(got, "a.c:1:") || !strings.HasSuffix(got, "(and 1 more files)") {
		t.Errorf("Survey = %q", got)
	}
	clean, _ := reachRoot(t, map[string]string{"ok.c": "#include <stdio.h>\n"})
	if got := Survey(context.Background(), clean, Server{}); got != "" {
		t.Errorf("Survey of a clean root = %q", got)
	}
}
