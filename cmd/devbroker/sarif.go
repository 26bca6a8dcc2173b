package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
)

// SARIF 2.1.0, the subset devbroker writes: one run per diagnostic source
// (driver) with its version and informationUri, its rules from the
// diagnostics' codes, one result per diagnostic with a region in 1-based
// lines and character columns, and devbroker's own notes as tool
// execution notifications.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool           `json:"tool"`
		Results            []sarifResult       `json:"results"`
		Invocations        []sarifInvocation   `json:"invocations,omitempty"`
		ColumnKind         string              `json:"columnKind"`
		OriginalURIBaseIDs map[string]sarifURI `json:"originalUriBaseIds,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	// sarifInvocation says whether the driver's run succeeded: a driver
	// that timed out or crashed is never clean, even without results.
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifRule struct {
		ID string `json:"id"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations,omitempty"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		// BaselineState says, for a finding compared with a baseline
		// (--since), whether the baseline had it: new or unchanged.
		BaselineState string `json:"baselineState,omitempty"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifLocation struct {
		// ID numbers a related location within its result.
		ID               int           `json:"id,omitempty"`
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
		// Message says what a related location is.
		Message *sarifMessage `json:"message,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifURI     `json:"artifactLocation"`
		Region           *sarifRegion `json:"region,omitempty"`
	}
	sarifURI struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s engine.Severity) string {
	switch s {
	case engine.SeverityError:
		return "error"
	case engine.SeverityWarning:
		return "warning"
	}
	return "note"
}

// devbrokerURI is devbroker's own informationUri: its module's home.
const devbrokerURI = "https://github.com/devbroker/devbroker"

// sarifToolInfo is what a run says of its tool beside its name.
type sarifToolInfo struct {
	Version string
	URI     string
}

// sarifTools are the tools of a probe report, by driver name: each with
// the version its probe found (its first line) and its documentation's
// address; devbroker itself with its own version.
func sarifTools(r *capabilities.Report) map[string]sarifToolInfo {
	out := map[string]sarifToolInfo{"devbroker": {Version: sarifVersion(broker.Version()), URI: devbrokerURI}}
	if r == nil {
		return out
	}
	for _, d := range r.Drivers {
		out[d.Name] = sarifToolInfo{Version: sarifVersion(d.Version), URI: d.URL}
	}
	return out
}

// versionNumber is a version number inside a tool's version line.
var versionNumber = regexp.MustCompile(`\d+(\.\d+)+\S*`)

// sarifVersion is a tool's version as SARIF wants it, starting with a
// number so that versions compare: the first line of what the tool
// reports when it starts with one ("2026.2.1 (v0.8.1)"), else the first
// version number in it ("go version go1.26.8 linux/amd64" is 1.26.8,
// "golang.org/x/tools/gopls v0.23.0" 0.23.0, devbroker's v1.2.3 1.2.3),
// or in a later line ("ShellCheck - shell script analysis tool\nversion:
// 0.9.0"); "" when it has none (a development build).
func sarifVersion(v string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(v), "\n")
	first = strings.TrimSpace(first)
	if first != "" && first[0] >= '0' && first[0] <= '9' {
		return first
	}
	if n := versionNumber.FindString(first); n != "" {
		return n
	}
	return versionNumber.FindString(v)
}

// noteLevel is the level of a note's notification: a warning where
// something can be installed or configured to cover what went without,
// a note otherwise.
func noteLevel(n engine.Note) string {
	switch n.Kind {
	case engine.NoteMissing, engine.NoteUntrusted, engine.NoteConfig:
		return "warning"
	}
	return "note"
}

// writeSARIF writes a result's diagnostics as a SARIF 2.1.0 log. Every
// driver that took part has a run, whose invocation says whether it
// succeeded: a driver that failed without diagnostics does not look
// clean. A finding compared with a baseline (--since) carries its
// baselineState: new, or unchanged when the baseline had it (those of
// the pre-existing list included). Every result has a ruleId: the finding's code, or its driver's
// name when it has none. What the answer says about itself (coverage,
// notes) and a failure of the step itself are tool execution
// notifications of devbroker's own run, never results. Each run's tool
// carries its version and informationUri where tools knows them.
func writeSARIF(w io.Writer, res *engine.Result, tools map[string]sarifToolInfo) error {
	bySource := map[string][]engine.Diagnostic{}
	for _, d := range slices.Concat(res.Diagnostics, res.PreExisting) {
		src := d.Source
		if src == "" {
			src = "devbroker"
		}
		bySource[src] = append(bySource[src], d)
	}
	invocations := map[string][]sarifInvocation{}
	for _, ds := range res.Drivers {
		inv := sarifInvocation{ExecutionSuccessful: ds.Status == engine.StatusOK}
		if !inv.ExecutionSuccessful {
			msg := string(ds.Status)
			if ds.Message != "" {
				msg += ": " + ds.Message
			}
			inv.ToolExecutionNotifications = []sarifNotification{{Level: "error", Message: sarifMessage{Text: msg}}}
		}
		invocations[ds.Driver] = append(invocations[ds.Driver], inv)
		if _, ok := bySource[ds.Driver]; !ok {
			bySource[ds.Driver] = nil
		}
	}
	if own := ownInvocation(res); own != nil {
		invocations["devbroker"] = append(invocations["devbroker"], *own)
		if _, ok := bySource["devbroker"]; !ok {
			bySource["devbroker"] = nil
		}
	}
	sources := make([]string, 0, len(bySource))
	for s := range bySource {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{},
	}
	for _, src := range sources {
		info := tools[src]
		run := sarifRun{
			Tool:        sarifTool{Driver: sarifDriver{Name: src, Version: info.Version, InformationURI: info.URI, Rules: []sarifRule{}}},
			Results:     []sarifResult{},
			Invocations: invocations[src],
			ColumnKind:  "unicodeCodePoints",
		}
		rules := map[string]bool{}
		for _, d := range bySource[src] {
			rule := d.Code
			if rule == "" {
				rule = src
			}
			r := sarifResult{RuleID: rule, Level: sarifLevel(d.Severity), Message: sarifMessage{Text: d.Message}}
			if d.Introduced != nil {
				r.BaselineState = "unchanged"
				if *d.Introduced {
					r.BaselineState = "new"
				}
			}
			if !rules[rule] {
				rules[rule] = true
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: rule})
			}
			if d.Path != "" {
				loc := sarifPhysical{ArtifactLocation: sarifURI{URI: relativeURI(d.Path), URIBaseID: "%SRCROOT%"}}
				if d.Line > 0 {
					reg := &sarifRegion{StartLine: d.Line, StartColumn: d.Column}
					if d.EndLine >= d.Line {
						reg.EndLine = d.EndLine
					}
					if d.EndColumn > 0 && (d.EndLine > d.Line || d.EndColumn >= d.Column) {
						reg.EndColumn = d.EndColumn
					}
					loc.Region = reg
				}
				r.Locations = []sarifLocation{{PhysicalLocation: loc}}
			}
			for i, rel := range d.Related {
				r.RelatedLocations = append(r.RelatedLocations, sarifRelated(i+1, rel))
			}
			run.Results = append(run.Results, r)
		}
		log.Runs = append(log.Runs, run)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// sarifRelated is a diagnostic's related place: a workspace path relative
// to %SRCROOT%, or a file outside the root by its absolute file URI.
func sarifRelated(id int, r engine.Related) sarifLocation {
	loc := sarifPhysical{ArtifactLocation: sarifURI{URI: relativeURI(r.Path), URIBaseID: "%SRCROOT%"}}
	if filepath.IsAbs(r.Path) {
		loc.ArtifactLocation = sarifURI{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r.Path)}).String()}
	}
	if r.Line > 0 {
		loc.Region = &sarifRegion{StartLine: r.Line, StartColumn: r.Column}
	}
	return sarifLocation{ID: id, PhysicalLocation: loc, Message: &sarifMessage{Text: r.Message}}
}

// ownInvocation is devbroker's own invocation: its notes as
// notifications, and a failure of the step that no driver's status
// carries (an answer that looked at no file, a refused plan) as an
// unsuccessful execution. nil when there is neither.
func ownInvocation(res *engine.Result) *sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, n := range res.Coverage {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: noteLevel(n), Message: sarifMessage{Text: n.Message}})
	}
	if e := res.Error; e != nil && e.Kind != fault.Diagnostics && (len(res.Drivers) == 0 || !e.Kind.Incomplete()) {
		inv.ExecutionSuccessful = false
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "error", Message: sarifMessage{Text: string(e.Kind) + ": " + e.Message}})
	}
	if inv.ExecutionSuccessful && len(inv.ToolExecutionNotifications) == 0 {
		return nil
	}
	return &inv
}

// relativeURI writes a workspace path as a relative URI reference: each
// segment percent-encoded, so spaces, "%" and "#" stay part of the path.
func relativeURI(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
