package main

// The load test of "one writer per root": many HTTP sessions of the real
// binary append a unique line to one file at once, through each tool that
// writes, retrying on conflict as the error's advice says. At the end the
// file holds exactly the acknowledged appends: none lost, none extra.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	// appendSessions is how many sessions append at once.
	appendSessions = 24
	// appendTries bounds one session's attempts at its append. It is
	// enough, whatever the timing: an attempt is refused only when another
	// session's write landed since the attempt read the file, and every
	// session writes once, so a session is refused at most
	// appendSessions-1 times.
	appendTries = appendSessions
	// appendMarker is the file's last line: each append goes before it.
	appendMarker = "END"
)

// appender makes one attempt at appending line to file (absolute path abs,
// root-relative rel) in session cs. It returns whether the tool
// acknowledged the append, and for a refusal its error kind and message.
type appender func(t *testing.T, cs *sdk.ClientSession, rel, abs, line string) (ok bool, kind, msg string)

// appenders are the tools under test, each used the way the product's
// documentation tells a client to use it, including the retry advice.
var appenders = map[string]appender{
	"dev_plan":          appendPlan,
	"apply_patch":       appendPatch,
	"edit_file_replace": appendStrReplace,
	"edit_file_insert":  appendInsert,
	"write_file":        appendWriteFile,
}

// toolOrder is the order of the subtests and of the mixed test's tools.
var toolOrder = []string{"dev_plan", "apply_patch", "edit_file_replace", "edit_file_insert", "write_file"}

func TestServeHTTPConcurrentAppendsLoseNothing(t *testing.T) {
	files := map[string]string{".devbroker.toml": noDrivers}
	for _, name := range append(toolOrder, "mixed") {
		files[name+".txt"] = "header\n" + appendMarker + "\n"
	}
	root := testtree.New(t, files)
	url, _, _ := startHTTP(t, root, "--tools", "full") // apply_patch, read_file and write_file as tools
	sessions := make([]*sdk.ClientSession, appendSessions)
	for i := range sessions {
		sessions[i] = connectHTTP(t, url, nil)
	}
	for _, name := range toolOrder {
		t.Run(name, func(t *testing.T) {
			runAppends(t, root, name+".txt", sessions, func(int) appender { return appenders[name] })
		})
	}
	// Every surface at once on one file: the writer is per root, not per tool.
	t.Run("mixed", func(t *testing.T) {
		runAppends(t, root, "mixed.txt", sessions, func(i int) appender { return appenders[toolOrder[i%len(toolOrder)]] })
	})
}

// runAppends has every session append one unique line to rel at once and
// checks that the file holds exactly the acknowledged lines.
func runAppends(t *testing.T, root, rel string, sessions []*sdk.ClientSession, pick func(i int) appender) {
	abs := filepath.Join(root, rel)
	var (
		mu        sync.Mutex
		acked     = map[string]bool{}
		conflicts int
		gaveUp    []string
		wg        sync.WaitGroup
	)
	start := time.Now()
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			line := fmt.Sprintf("append from session %02d to %s", i, rel)
			do := pick(i)
			for try := 0; try < appendTries; try++ {
				ok, kind, msg := do(t, cs, rel, abs, line)
				if ok {
					mu.Lock()
					acked[line] = true
					mu.Unlock()
					return
				}
				if kind != "conflict" {
					t.Errorf("session %d: refused with kind %q, want only conflicts: %s", i, kind, msg)
					return
				}
				mu.Lock()
				conflicts++
				mu.Unlock()
			}
			mu.Lock()
			gaveUp = append(gaveUp, line)
			mu.Unlock()
		}()
	}
	wg.Wait()

	got := strings.Split(strings.TrimSuffix(readFile(t, root, rel), "\n"), "\n")
	if len(got) < 2 || got[0] != "header" || got[len(got)-1] != appendMarker {
		t.Fatalf("%s lost its first or last line:\n%s", rel, strings.Join(got, "\n"))
	}
	present := map[string]int{}
	for _, l := range got[1 : len(got)-1] {
		present[l]++
	}
	lost, extra := 0, 0
	for l := range acked {
		if present[l] != 1 {
			lost++
			t.Errorf("acknowledged append %q is in the file %d times, want once", l, present[l])
		}
	}
	for l, n := range present {
		if !acked[l] {
			extra++
			t.Errorf("%q is in the file (%d times) but no answer acknowledged it", l, n)
		}
	}
	t.Logf("%s: %d sessions, %d acknowledged, %d lost, %d unacknowledged in the file, %d conflicts retried, %d gave up after %d tries, %v",
		rel, len(sessions), len(acked), lost, extra, conflicts, len(gaveUp), appendTries, time.Since(start).Round(time.Millisecond))
	if len(gaveUp) > 0 {
		t.Errorf("%d sessions were refused %d times: a refusal must mean that another append landed: %q", len(gaveUp), appendTries, gaveUp)
	}
}

// call runs one tool call, failing the test on a protocol error.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Errorf("%s: protocol error: %v", name, err)
		return &sdk.CallToolResult{IsError: true}
	}
	return res
}

// answer is the part of a DevResult or an edit_file result the test reads.
type answer struct {
	OK    *bool `json:"ok"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

// outcome reads a DevResult or an edit_file result: ok, or the error's kind.
func outcome(t *testing.T, res *sdk.CallToolResult) (bool, string, string) {
	var r answer
	if res.StructuredContent != nil {
		r = decodeStructured[answer](t, res)
	}
	switch {
	case r.Error != nil:
		return false, r.Error.Kind, r.Error.Message
	case res.IsError || (r.OK != nil && !*r.OK):
		return false, "unknown", resultText(res)
	}
	return true, "", ""
}

// retryPlan is the advice of a refused workspace write: discard the file,
// so that the workspace takes what the disk holds now; the caller redoes.
func retryPlan(t *testing.T, cs *sdk.ClientSession, rel string, ok bool, kind, msg string) (bool, string, string) {
	if !ok {
		if res := call(t, cs, "discard", map[string]any{"paths": []string{rel}}); res.IsError {
			t.Errorf("discard %s: %s", rel, resultText(res))
		}
	}
	return ok, kind, msg
}

func appendPlan(t *testing.T, cs *sdk.ClientSession, rel, _, line string) (bool, string, string) {
	res := call(t, cs, "dev_plan", map[string]any{"paths": []string{rel}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": rel, "edits": []any{
			map[string]any{"find": appendMarker, "replace": line + "\n" + appendMarker}}}},
		map[string]any{"step": "write", "args": map[string]any{"paths": []string{rel}}},
	}})
	ok, kind, msg := outcome(t, res)
	return retryPlan(t, cs, rel, ok, kind, msg)
}

func appendPatch(t *testing.T, cs *sdk.ClientSession, rel, _, line string) (bool, string, string) {
	patch := fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n+%s\n*** End Patch", rel, appendMarker, line, appendMarker)
	ok, kind, msg := outcome(t, call(t, cs, "apply_patch", map[string]any{"patch": patch}))
	return retryPlan(t, cs, rel, ok, kind, msg)
}

// viewRevision views abs and returns its revision.
func viewRevision(t *testing.T, cs *sdk.ClientSession, abs string) (string, bool) {
	res := call(t, cs, "edit_file", map[string]any{"command": "view", "file_path": abs})
	r := decodeStructured[struct {
		Revision string `json:"revision"`
	}](t, res)
	if res.IsError || r.Revision == "" {
		t.Errorf("view %s: %s", abs, resultText(res))
		return "", false
	}
	return r.Revision, true
}

func appendStrReplace(t *testing.T, cs *sdk.ClientSession, _, abs, line string) (bool, string, string) {
	rev, ok := viewRevision(t, cs, abs)
	if !ok {
		return false, "view", ""
	}
	return outcome(t, call(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs,
		"old_str": appendMarker + "\n", "new_str": line + "\n" + appendMarker + "\n", "revision": rev}))
}

func appendInsert(t *testing.T, cs *sdk.ClientSession, _, abs, line string) (bool, string, string) {
	rev, ok := viewRevision(t, cs, abs)
	if !ok {
		return false, "view", ""
	}
	return outcome(t, call(t, cs, "edit_file", map[string]any{"command": "insert", "file_path": abs,
		"insert_before_anchor": appendMarker, "new_str": line, "revision": rev}))
}

func appendWriteFile(t *testing.T, cs *sdk.ClientSession, _, abs, line string) (bool, string, string) {
	res := call(t, cs, "read_file", map[string]any{"file_path": abs})
	r := decodeStructured[struct {
		Revision string `json:"revision"`
	}](t, res)
	if res.IsError || r.Revision == "" {
		t.Errorf("read_file %s: %s", abs, resultText(res))
		return false, "read", ""
	}
	// read_file numbers the lines ("N\ttext"); the file has no other tab.
	var lines []string
	for _, l := range strings.Split(resultText(res), "\n") {
		if _, text, ok := strings.Cut(l, "\t"); ok {
			lines = append(lines, text)
		}
	}
	if len(lines) == 0 || lines[len(lines)-1] != appendMarker {
		t.Errorf("read_file %s: no %s line in:\n%s", abs, appendMarker, resultText(res))
		return false, "read", ""
	}
	lines = append(lines[:len(lines)-1], line, appendMarker)
	return outcome(t, call(t, cs, "write_file", map[string]any{"file_path": abs,
		"content": strings.Join(lines, "\n") + "\n", "revision": r.Revision}))
}
