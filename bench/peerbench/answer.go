package main

// This file reads each candidate's answer into the errors it names, and
// judges it: correct when it names the benchmark's error exactly when the
// file has it, and no other error that the clean module did not have.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// diag is one error an answer names: its file (slash path relative to the
// root), 1-based line and message.
type diag struct {
	path string
	line int
	msg  string
}

func (d diag) String() string { return fmt.Sprintf("%s:%d: %s", d.path, d.line, d.msg) }

// answer is what a candidate said after an edit.
type answer struct {
	errs       []diag
	incomplete string // why the answer is not complete ("" when it is)
}

// judge says whether a is right for e's file, given the errors the clean
// module had (baseline): want is what the error the file has must say
// (see want), "" when the file has no error of the benchmark's. only
// limits the errors looked at to the edited file (for concurrent
// sessions, whose neighbours' edits are on the same disk).
func judge(a answer, e *edit, want string, baseline []diag, only bool) (ok bool, why string) {
	if a.incomplete != "" {
		return false, "incomplete: " + a.incomplete
	}
	var fresh []diag
	found, stale := 0, 0
	for _, d := range a.errs {
		switch {
		case only && d.path != e.file:
		case want != "" && d.path == e.file && d.line == e.errLine() && strings.Contains(d.msg, want):
			found++
		case !slices.Contains(baseline, d):
			if strings.Contains(d.msg, "devbroker-bench") {
				stale++
			}
			fresh = append(fresh, d)
		}
	}
	switch {
	case want != "" && found != 1:
		return false, fmt.Sprintf("the error was named %d times, want once (others: %v)", found, fresh)
	case stale > 0:
		return false, fmt.Sprintf("names an error the file no longer has: %v", fresh)
	case len(fresh) > 0:
		return false, fmt.Sprintf("other new errors: %v", fresh)
	}
	return true, ""
}

// wantOf is want for the toggle's file, broken or clean.
func wantOf(broken bool) string {
	if broken {
		return wantMessage
	}
	return ""
}

// devAnswer reads devbroker's DevResult (dev_plan or check): its error
// diagnostics, and whether every driver answered completely.
func devAnswer(res *sdk.CallToolResult) (answer, error) {
	var r struct {
		Diagnostics []struct {
			Path     string `json:"path"`
			Line     int    `json:"line"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"diagnostics"`
		Drivers []struct {
			Driver, Status, Message string
		} `json:"drivers"`
		Error *struct {
			Name, Kind, Message string
		} `json:"error"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil || res.StructuredContent == nil {
		return answer{}, fmt.Errorf("devbroker's answer has no result (%v): %s", err, resultText(res))
	}
	var a answer
	if r.Error != nil && r.Error.Kind != "diagnostics" {
		switch r.Error.Kind {
		case "timeout", "crashed", "indexing", "unchecked", "unavailable":
			a.incomplete = r.Error.Kind + ": " + r.Error.Message
		default:
			return answer{}, fmt.Errorf("devbroker: %s failed (%s): %s", r.Error.Name, r.Error.Kind, r.Error.Message)
		}
	}
	for _, d := range r.Drivers {
		if d.Status != "ok" && a.incomplete == "" {
			a.incomplete = d.Driver + " " + d.Status + ": " + d.Message
		}
	}
	for _, d := range r.Diagnostics {
		if d.Severity == "error" {
			a.errs = append(a.errs, diag{filepath.ToSlash(d.Path), d.Line, d.Message})
		}
	}
	return a, nil
}

// goplsLine is one diagnostic of go_diagnostics's text:
// "LINE:COL-LINE:COL: [Severity] message", positions 0-based.
var goplsLine = regexp.MustCompile(`^(\d+):\d+-\d+:\d+: \[(\w+)\] (.*)$`)

// goplsAnswer reads gopls mcp's go_diagnostics text: "File `PATH` has the
// following diagnostics:" then one line per diagnostic (and fixes as
// diffs, which are skipped). Paths outside root keep their absolute form.
func goplsAnswer(text, root string) answer {
	var a answer
	file := ""
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		if rest, ok := strings.CutPrefix(line, "File `"); ok {
			if p, _, ok := strings.Cut(rest, "` has the following diagnostics:"); ok {
				file = relTo(root, p)
			}
			continue
		}
		m := goplsLine.FindStringSubmatch(line)
		if m == nil || file == "" || m[2] != "Error" {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		a.errs = append(a.errs, diag{file, n + 1, m[3]})
	}
	return a
}

// agentLSPAnswer reads agent-lsp's get_diagnostics answer in its JSON
// output format: an object from file URI to LSP diagnostics, followed by a
// hint in plain text.
func agentLSPAnswer(text, root string) (answer, error) {
	i := strings.IndexByte(text, '{')
	if i < 0 {
		return answer{}, fmt.Errorf("agent-lsp's answer has no JSON object: %.200q", text)
	}
	var m map[string][]struct {
		Range struct {
			Start struct{ Line int } `json:"start"`
		} `json:"range"`
		Severity int    `json:"severity"`
		Message  string `json:"message"`
	}
	if err := json.NewDecoder(strings.NewReader(text[i:])).Decode(&m); err != nil {
		return answer{}, fmt.Errorf("agent-lsp's answer: %w: %.200q", err, text)
	}
	var a answer
	for uri, ds := range m {
		p := uri
		if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
			p = u.Path
		}
		for _, d := range ds {
			if d.Severity == 1 {
				a.errs = append(a.errs, diag{relTo(root, p), d.Range.Start.Line + 1, d.Message})
			}
		}
	}
	return a, nil
}

// relTo is p relative to root as a slash path, or p when it is outside.
func relTo(root, p string) string {
	rel, err := filepath.Rel(root, filepath.FromSlash(p))
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	return filepath.ToSlash(rel)
}

// resultText is a tool result's text content.
func resultText(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
