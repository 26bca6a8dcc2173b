package main

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine"
)

// SARIF 2.1.0, the subset devbroker writes: one run per diagnostic source
// (driver), its rules from the diagnostics' codes, and one result per
// diagnostic with a region in 1-based lines and character columns.
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
		RuleID           string          `json:"ruleId,omitempty"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations,omitempty"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
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

// writeSARIF writes a result's diagnostics as a SARIF 2.1.0 log. Every
// driver that took part has a run, whose invocation says whether it
// succeeded: a driver that failed without diagnostics does not look clean.
func writeSARIF(w io.Writer, res *engine.Result) error {
	bySource := map[string][]engine.Diagnostic{}
	for _, d := range res.Diagnostics {
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
		run := sarifRun{
			Tool:        sarifTool{Driver: sarifDriver{Name: src, Rules: []sarifRule{}}},
			Results:     []sarifResult{},
			Invocations: invocations[src],
			ColumnKind:  "unicodeCodePoints",
		}
		rules := map[string]bool{}
		for _, d := range bySource[src] {
			r := sarifResult{RuleID: d.Code, Level: sarifLevel(d.Severity), Message: sarifMessage{Text: d.Message}}
			if d.Code != "" && !rules[d.Code] {
				rules[d.Code] = true
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: d.Code})
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

// relativeURI writes a workspace path as a relative URI reference: each
// segment percent-encoded, so spaces, "%" and "#" stay part of the path.
func relativeURI(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
