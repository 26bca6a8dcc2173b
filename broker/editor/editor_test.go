package editor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/testtree"
)

type planResult struct {
	wire.DevResult
	Apply string          `json:"apply"`
	Edit  json.RawMessage `json:"edit"`
}

func editOp(path, find, replace string) map[string]any {
	return map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]string{"find": find, "replace": replace}}}}
}

func TestInitialize(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	c := start(t, root, true)
	err := c.call("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{}}, nil)
	if code, kind, _, msg := rpcErr(t, err); code != jsonrpc2.ServerNotInitialized || kind != "bad_argument" || !strings.Contains(msg, "initialize") {
		t.Errorf("plan before initialize: code %d kind %s %q", code, kind, msg)
	}
	var res editor.InitializeResult
	c.must("initialize", map[string]any{"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-32", "utf-16"}}}}, &res)
	if res.ServerInfo.Name != "devbroker" || res.Capabilities.PositionEncoding != "utf-32" || res.Capabilities.TextDocumentSync.Change != 2 {
		t.Errorf("initialize = %+v", res)
	}
	if !slices.Contains(res.Devbroker.Steps, "check") || slices.Contains(res.Devbroker.Steps, "lint") {
		t.Errorf("steps = %v, want check and no lint", res.Devbroker.Steps)
	}
	if !slices.Equal(res.Devbroker.Available["check"], []string{"text"}) || res.Devbroker.Session == "" {
		t.Errorf("devbroker info = %+v", res.Devbroker)
	}
	for _, m := range []string{"devbroker/plan", "devbroker/editFile", "devbroker/readFile", "devbroker/writeFile", "devbroker/probe", "devbroker/discard", "textDocument/didChange"} {
		if !slices.Contains(res.Devbroker.Methods, m) {
			t.Errorf("methods lack %s: %v", m, res.Devbroker.Methods)
		}
	}
	if err := c.call("initialize", map[string]any{}, nil); err == nil {
		t.Error("a second initialize succeeded")
	}
}

// An unsaved buffer change is what a plan reads and edits, and the edit it
// returns, applied to the buffer, gives the workspace's result; the disk is
// never written.
func TestBufferSyncAndEditorApply(t *testing.T) {
	disk := map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "keep\n"}
	root := testtree.New(t, disk)
	c := start(t, root, false)
	c.init(nil)
	c.open("a.txt", disk["a.txt"], 1)
	// Incremental change with UTF-16 columns: the emoji is two units.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 2},
		"contentChanges": []any{
			map[string]any{"range": map[string]any{"start": map[string]int{"line": 1, "character": 3}, "end": map[string]int{"line": 1, "character": 3}}, "text": " 😀 unsaved"},
			map[string]any{"range": map[string]any{"start": map[string]int{"line": 1, "character": 14}, "end": map[string]int{"line": 1, "character": 14}}, "text": "!"},
		},
	})
	buf := "one\ntwo 😀 unsaved!\nthree\n"

	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 2, "end": 2}, "label": "l2"},
	}}, &r)
	if r.Reads["l2"] != "two 😀 unsaved!" {
		t.Fatalf("read_lines saw %q, want the unsaved buffer line", r.Reads["l2"])
	}

	r = planResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{editOp("a.txt", "two 😀 unsaved!", "TWO")}}, &r)
	if !r.OK || r.Apply != "editor" || len(r.Written) != 0 {
		t.Fatalf("plan = %+v", r.DevResult)
	}
	var e wsEdit
	if err := json.Unmarshal(r.Edit, &e); err != nil {
		t.Fatal(err)
	}
	if len(e.DocumentChanges) != 1 || e.DocumentChanges[0].TextDocument.Version == nil || *e.DocumentChanges[0].TextDocument.Version != 2 {
		t.Fatalf("edit = %s, want one TextDocumentEdit at buffer version 2", r.Edit)
	}
	got := c.applyWorkspaceEdit(map[string]string{"a.txt": buf}, r.Edit)
	if got["a.txt"] != "one\nTWO\nthree\n" {
		t.Errorf("edit applied to the buffer = %q", got["a.txt"])
	}
	if d := testtree.Read(t, root); d["a.txt"] != disk["a.txt"] || d["b.txt"] != disk["b.txt"] {
		t.Errorf("disk changed: %v", d)
	}

	// The editor applies the edit and syncs: nothing is left to apply,
	// and a full-text sync is the truth again.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 3}, "contentChanges": []any{map[string]any{"text": got["a.txt"]}}})
	r = planResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}}}}, &r)
	if r.Reads["a.txt"] != "one\nTWO\nthree" || !slices.Equal(r.Unwritten, []string{"a.txt"}) {
		t.Errorf("after the sync: reads %q unwritten %v", r.Reads["a.txt"], r.Unwritten)
	}
}

// Adds, deletions and moves come back as CreateFile, DeleteFile and
// RenameFile; the edit applied to the editor's files gives the workspace.
func TestEditorApplyFileOperations(t *testing.T) {
	disk := map[string]string{"a.txt": "alpha\nbeta\n", "gone.txt": "bye\n", "old.txt": "x\ny\n", "open.txt": "o\n"}
	root := testtree.New(t, disk)
	c := start(t, root, false)
	c.init(nil)
	c.open("open.txt", "o\nunsaved\n", 5)
	patch := strings.Join([]string{
		"*** Begin Patch",
		"*** Add File: dir/new.txt",
		"+fresh",
		"*** Delete File: gone.txt",
		"*** Update File: old.txt",
		"*** Move to: moved.txt",
		"@@",
		" x",
		"-y",
		"+why",
		"*** Update File: open.txt",
		"@@",
		" unsaved",
		"+more",
		"*** End Patch",
	}, "\n")
	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"**"}, "ops": []any{
		map[string]any{"step": "apply_patch", "args": map[string]any{"patch": patch}},
	}}, &r)
	if !r.OK {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	kinds := changeKinds(t, r.Edit)
	if !slices.Equal(kinds, []string{"rename", "delete", "create", "", "", ""}) {
		t.Errorf("documentChanges kinds = %q, want rename, delete, create, then text edits", kinds)
	}
	editorView := testtree.Read(t, root)
	editorView["open.txt"] = "o\nunsaved\n"
	got := c.applyWorkspaceEdit(editorView, r.Edit)
	want := map[string]string{"a.txt": "alpha\nbeta\n", "dir/new.txt": "fresh\n", "moved.txt": "x\nwhy\n", "open.txt": "o\nunsaved\nmore\n"}
	if len(got) != len(want) {
		t.Errorf("files after the edit = %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s after the edit = %q, want %q", p, got[p], w)
		}
	}
	if d := testtree.Read(t, root); len(d) != len(disk) || d["gone.txt"] != "bye\n" || d["open.txt"] != "o\n" {
		t.Errorf("disk changed: %v", d)
	}
}

func TestApplyEditorRefusesWrite(t *testing.T) {
	disk := map[string]string{"a.txt": "one\n"}
	root := testtree.New(t, disk)
	c := start(t, root, false)
	c.init(nil)
	err := c.call("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{editOp("a.txt", "one", "1"), map[string]any{"step": "write"}}}, nil)
	code, kind, retry, msg := rpcErr(t, err)
	if code != jsonrpc2.InvalidParams || kind != "bad_argument" || retry || !strings.Contains(msg, `apply: "disk"`) {
		t.Errorf("write with apply editor: %d %s %v %q", code, kind, retry, msg)
	}
	err = c.call("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{}, "apply": "somewhere"}, nil)
	if code, _, _, msg := rpcErr(t, err); code != jsonrpc2.InvalidParams || !strings.Contains(msg, `"editor" or "disk"`) {
		t.Errorf("bad apply: %d %q", code, msg)
	}
	if d := testtree.Read(t, root); d["a.txt"] != "one\n" {
		t.Errorf("disk changed: %v", d)
	}
}

// With apply "disk" the plan writes, but never an unsaved buffer's text;
// once the editor saved, the buffer is no unwritten change any more.
func TestApplyDisk(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	c := start(t, root, false)
	c.init(nil)
	c.open("a.txt", "one, unsaved\n", 1)
	plan := map[string]any{"paths": []string{"b.txt"}, "apply": "disk", "ops": []any{editOp("b.txt", "bee", "BEE"), map[string]any{"step": "write"}}}
	err := c.call("devbroker/plan", plan, nil)
	if code, kind, _, msg := rpcErr(t, err); code != editor.CodeConflict || kind != "conflict" || !strings.Contains(msg, "a.txt") {
		t.Fatalf("write over an unsaved buffer: %d %s %q", code, kind, msg)
	}
	// The editor saves; the broker hears of it.
	saved := filepath.Join(root, "a.txt")
	if err := writeFile(saved, "one, unsaved\n"); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt")}})
	var r planResult
	c.must("devbroker/plan", plan, &r)
	if !r.OK || !slices.Equal(r.Written, []string{"b.txt"}) || r.Edit != nil || len(r.Unwritten) != 0 {
		t.Fatalf("disk plan = %+v edit %s", r.DevResult, r.Edit)
	}
	if d := testtree.Read(t, root); d["b.txt"] != "BEE\n" || d["a.txt"] != "one, unsaved\n" {
		t.Errorf("disk = %v", d)
	}
}

func TestCloseBufferGoesBackToDisk(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	c := start(t, root, false)
	c.init(nil)
	c.open("a.txt", "one, unsaved\n", 1)
	c.open("new.txt", "only in the editor\n", 1)
	var p editor.PendingResult
	c.must("devbroker/pending", nil, &p)
	if !slices.Equal(p.Unwritten, []string{"a.txt", "new.txt"}) || len(p.Buffers) != 2 || !p.Buffers[0].Dirty {
		t.Fatalf("pending = %+v", p)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt")}})
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri("new.txt")}})
	p = editor.PendingResult{}
	c.must("devbroker/pending", nil, &p)
	if len(p.Unwritten) != 0 || len(p.Buffers) != 0 {
		t.Errorf("pending after close = %+v", p)
	}
}

func TestFileMethods(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "bee\n"})
	c := start(t, root, false)
	c.init(nil)
	abs := filepath.Join(root, "a.txt")
	var fr wire.FileResult
	c.must("devbroker/readFile", map[string]any{"file_path": abs}, &fr)
	if !strings.Contains(fr.Text, "two") || !strings.HasPrefix(fr.Revision, "sha256:") {
		t.Fatalf("readFile = %+v", fr)
	}
	fr = wire.FileResult{}
	c.must("devbroker/editFile", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "two", "new_str": "2"}, &fr)
	if !fr.Changed || testtree.Read(t, root)["a.txt"] != "one\n2\n" {
		t.Fatalf("editFile = %+v, disk %q", fr, testtree.Read(t, root)["a.txt"])
	}
	fr = wire.FileResult{}
	c.must("devbroker/writeFile", map[string]any{"file_path": filepath.Join(root, "c.txt"), "content": "sea\n"}, &fr)
	if !fr.Changed || testtree.Read(t, root)["c.txt"] != "sea\n" {
		t.Fatalf("writeFile = %+v", fr)
	}
	// edit_file works on the disk: an unsaved buffer makes it refuse.
	b := filepath.Join(root, "b.txt")
	c.must("devbroker/readFile", map[string]any{"file_path": b}, nil)
	c.open("b.txt", "bee, unsaved\n", 7)
	err := c.call("devbroker/editFile", map[string]any{"command": "str_replace", "file_path": b, "old_str": "bee", "new_str": "B"}, nil)
	if code, kind, _, msg := rpcErr(t, err); code != editor.CodeConflict || kind != "conflict" || !strings.Contains(msg, "unsaved changes in the editor") {
		t.Errorf("editFile on an unsaved buffer: %d %s %q", code, kind, msg)
	}
	err = c.call("devbroker/editFile", map[string]any{"command": "view", "file_path": abs, "bogus": 1}, nil)
	if code, kind, _, msg := rpcErr(t, err); code != jsonrpc2.InvalidParams || kind != "bad_argument" || !strings.Contains(msg, `edit_file: unknown argument "bogus"; the arguments are: command (required), file_path (required), view_range`) {
		t.Errorf("unknown parameter: %d %s %q", code, kind, msg)
	}
	if testtree.Read(t, root)["b.txt"] != "bee\n" {
		t.Error("b.txt changed on disk")
	}
}

func TestProbeAndDiscard(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	c := start(t, root, true)
	c.init(nil)
	var pr wire.ProbeResult
	c.must("devbroker/probe", map[string]any{"reprobe": true}, &pr)
	if len(pr.Drivers) != 1 || pr.Drivers[0].Name != "bad" || !slices.Contains(pr.Steps, "check") {
		t.Errorf("probe = %+v", pr)
	}
	err := c.call("devbroker/probe", map[string]any{"again": true}, nil)
	if code, kind, _, msg := rpcErr(t, err); code != jsonrpc2.InvalidParams || kind != "bad_argument" || !strings.Contains(msg, `devbroker/probe: invalid params: unknown argument "again"; the arguments are: reprobe`) {
		t.Errorf("probe with an unknown parameter: %d %s %q", code, kind, msg)
	}
	c.open("a.txt", "one, unsaved\n", 1)
	c.must("devbroker/plan", map[string]any{"paths": []string{"b.txt"}, "ops": []any{editOp("b.txt", "bee", "BEE")}}, nil)
	var dr editor.DiscardResult
	c.must("devbroker/discard", nil, &dr)
	if !slices.Equal(dr.Discarded, []string{"b.txt"}) || !slices.Equal(dr.Buffers, []string{"a.txt"}) {
		t.Errorf("discard = %+v", dr)
	}
	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}}}}, &r)
	if r.Reads["a.txt"] != "one, unsaved" {
		t.Errorf("the buffer did not survive the discard: %q", r.Reads["a.txt"])
	}
}

func TestPublishDiagnostics(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "fine\n"})
	c := start(t, root, true)
	c.init(map[string]any{"publishDiagnostics": true})
	c.open("a.txt", "fine\nx 😀 BAD\n", 4)
	check := map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "check"}}}
	var r planResult
	c.must("devbroker/plan", check, &r)
	if r.OK || len(r.Diagnostics) != 1 || r.Diagnostics[0].Column != 5 {
		t.Fatalf("check = %+v", r.DevResult)
	}
	type published struct {
		URI         string `json:"uri"`
		Version     int    `json:"version"`
		Diagnostics []struct {
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
			Severity int    `json:"severity"`
			Code     string `json:"code"`
			Source   string `json:"source"`
		} `json:"diagnostics"`
	}
	notes := c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) == 1 })
	var p published
	if err := json.Unmarshal(notes[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.URI != c.uri("a.txt") || p.Version != 4 || len(p.Diagnostics) != 1 {
		t.Fatalf("published %s", notes[0].Params)
	}
	d := p.Diagnostics[0]
	// "x 😀 " is 4 characters and 5 UTF-16 units.
	if d.Range.Start.Line != 1 || d.Range.Start.Character != 5 || d.Range.End.Character != 8 || d.Severity != 1 || d.Code != "B1" || d.Source != "bad" {
		t.Errorf("published diagnostic %+v", d)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 5}, "contentChanges": []any{map[string]any{"text": "fine\n"}}})
	c.must("devbroker/plan", check, nil)
	notes = c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) == 2 })
	p = published{}
	if err := json.Unmarshal(notes[1].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.URI != c.uri("a.txt") || len(p.Diagnostics) != 0 {
		t.Errorf("after the fix, published %s, want an empty list", notes[1].Params)
	}
}

func TestNotificationErrorsAreLogged(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	c := start(t, root, false)
	c.init(nil)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 1}, "contentChanges": []any{map[string]any{"text": "x"}}})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///elsewhere/x.txt", "version": 1, "text": "x"}})
	notes := c.notesOf("window/logMessage", func(n []note) bool { return len(n) >= 2 })
	if !strings.Contains(string(notes[0].Params), "not open") || !strings.Contains(string(notes[1].Params), "outside the root") {
		t.Errorf("logMessages = %s / %s", notes[0].Params, notes[1].Params)
	}
	var p editor.PendingResult
	c.must("devbroker/pending", nil, &p) // the connection is still up
}

// An editor started in a symlinked directory (macOS's /tmp, a symlinked
// checkout) names its buffers under the root as it gave it: those URIs are
// synced, and the edits come back in the same spelling.
func TestRootThroughASymlink(t *testing.T) {
	real := testtree.New(t, map[string]string{"a.txt": "one\ntwo\n"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	c := start(t, link, false)
	c.init(nil)
	c.open("a.txt", "one\nunsaved\n", 1)
	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 2, "end": 2}, "label": "l2"},
		editOp("a.txt", "unsaved", "edited"),
	}}, &r)
	if !r.OK || r.Reads["l2"] != "unsaved" {
		t.Fatalf("plan over the buffer synced through the link: %+v", r.DevResult)
	}
	var e wsEdit
	if err := json.Unmarshal(r.Edit, &e); err != nil {
		t.Fatal(err)
	}
	if len(e.DocumentChanges) != 1 || e.DocumentChanges[0].TextDocument.URI != c.uri("a.txt") {
		t.Fatalf("edit = %s, want one edit of %s", r.Edit, c.uri("a.txt"))
	}
	if n := c.notesOf("window/logMessage", func([]note) bool { return true }); len(n) != 0 {
		t.Errorf("sync through the link logged %s", n[0].Params)
	}
}

// stdinLike is a connection whose Read blocks until data comes and whose
// Close does not unblock it, like a process's standard input.
type stdinLike struct {
	io.Reader
	io.Writer
}

func (stdinLike) Close() error { return nil }

// Cancelling Serve's context (SIGTERM) ends the session and returns at
// once, even though the editor keeps its end of stdin open and a read of
// it never returns. The test cancels once Serve has answered a request,
// so the session is open and Serve is reading stdin again.
func TestServeReturnsWhenCancelledWithStdinOpen(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	mgr := broker.NewManager(broker.Options{})
	t.Cleanup(func() { mgr.Close() })
	in, keepOpen := io.Pipe()
	t.Cleanup(func() { keepOpen.Close() })
	out, toClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- editor.Options{}.Serve(ctx, stdinLike{in, toClient}, mgr, root) }()
	go func() {
		body := `{"jsonrpc":"2.0","id":1,"method":"devbroker/no-such-method"}`
		fmt.Fprintf(keepOpen, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}()
	r := bufio.NewReader(out)
	for { // the answer's header, up to the blank line
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		if line == "\r\n" {
			break
		}
	}
	go io.Copy(io.Discard, r) // the answer's body, and whatever follows
	if len(mgr.Sessions()) != 1 {
		t.Fatalf("Serve answered with sessions %v open, want its one", mgr.Sessions())
	}
	cancel()
	if err := <-done; err != nil { // at once: the test's timeout is the bound
		t.Errorf("Serve returned %v", err)
	}
	toClient.Close()
	if s := mgr.Sessions(); len(s) != 0 {
		t.Errorf("sessions left open: %v", s)
	}
}

// An open buffer is the truth for its file: a plan that acquires it does
// not read an outside change from disk (unlike an agent's session, which
// follows the disk).
func TestBufferWinsOverOutsideChange(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	c := start(t, root, false)
	c.init(nil)
	c.open("a.txt", "one\n", 1)
	read := map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}}}}
	var r planResult
	c.must("devbroker/plan", read, &r)
	if err := writeFile(filepath.Join(root, "a.txt"), "changed outside\n"); err != nil {
		t.Fatal(err)
	}
	r = planResult{}
	c.must("devbroker/plan", read, &r)
	if r.Reads["a.txt"] != "one" {
		t.Errorf("read with the buffer open = %q, want the buffer's text", r.Reads["a.txt"])
	}
	// Once the buffer is closed, the session follows the disk.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt")}})
	r = planResult{}
	c.must("devbroker/plan", read, &r)
	if r.Reads["a.txt"] != "changed outside" || len(r.Unwritten) != 0 {
		t.Errorf("read after close = %q, unwritten %v; want the disk's text and nothing unwritten", r.Reads["a.txt"], r.Unwritten)
	}
}
