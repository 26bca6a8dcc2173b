package wire

// This file defines the probe's answer, the same on every surface: the CLI's
// probe --json, the MCP probe tool's structured content and the editor
// endpoint's devbroker/probe.

import (
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// ProbeResult is what the probe found.
type ProbeResult struct {
	Drivers   []DriverReport      `json:"drivers" jsonschema:"every configured driver and what the probe found"`
	Available map[string][]string `json:"available" jsonschema:"format, lint and check, each with the languages that have a working driver"`
	Steps     []string            `json:"steps" jsonschema:"the plan steps available now: format, lint and check only with a working driver (the MCP tools of the same names follow them)"`
	Project   *ProjectReport      `json:"project,omitempty" jsonschema:"the root's .devbroker.toml and whether the user trusts it"`
}

// NewProbeResult maps a report; steps are the plan steps available with
// its drivers (engine.Engine.AvailableSteps).
func NewProbeResult(r *capabilities.Report, steps []string) *ProbeResult {
	return &ProbeResult{Drivers: DriverReports(r), Available: Available(r), Steps: append([]string{}, steps...), Project: Project(r)}
}

// DriverReport is one driver's line of the probe report.
type DriverReport struct {
	Name    string   `json:"name"`
	Type    string   `json:"type" jsonschema:"gofumpt, staticcheck, lsp or external"`
	Kinds   []string `json:"kinds" jsonschema:"what the driver does: format, lint, check"`
	Doc     string   `json:"doc,omitempty" jsonschema:"what the driver is"`
	State   string   `json:"state" jsonschema:"found, missing, failed or untrusted (the driver runs code the repository provides and the user has not trusted the root; it does not run); probing while its probe runs, not_probed when no file of its language is under the root (it is probed when a request first needs it)"`
	Reason  string   `json:"reason,omitempty" jsonschema:"why a driver is not found, and what to do"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
	Command []string `json:"command,omitempty" jsonschema:"for an untrusted driver, the command it would run"`
	// Withheld: see capabilities.DriverReport.
	Withheld string `json:"withheld,omitempty" jsonschema:"for a C language server in a root the user has not trusted, the files it is not sent because they would make it read files outside the root, and why"`
}

// ProjectReport is the probe's word on the root's project file.
type ProjectReport struct {
	File    string       `json:"file,omitempty" jsonschema:"the root's .devbroker.toml; absent when it has none"`
	Trusted bool         `json:"trusted" jsonschema:"whether the user trusts the root: when false, none of .devbroker.toml applies (the embedded defaults and the user's own configuration serve) and drivers that run the repository's code do not run"`
	Reason  string       `json:"reason,omitempty" jsonschema:"when not trusted, why, and how the user trusts it (devbroker trust DIR, outside this server)"`
	Summary string       `json:"summary,omitempty" jsonschema:"when the file is not trusted, that none of it applies and what it would run"`
	Runs    []ProjectRun `json:"runs,omitempty" jsonschema:"the commands the file would run once trusted"`
}

// ProjectRun is one command a project file names.
type ProjectRun struct {
	Driver string   `json:"driver"`
	Key    string   `json:"key" jsonschema:"command, fix_command or version_command"`
	Argv   []string `json:"argv"`
}

// Project maps the report's project part; nil without one.
func Project(r *capabilities.Report) *ProjectReport {
	p := r.Project
	if p == nil {
		return nil
	}
	out := &ProjectReport{File: p.File, Trusted: p.Trusted, Reason: p.Reason, Summary: p.Summary()}
	for _, x := range p.Runs {
		out.Runs = append(out.Runs, ProjectRun{Driver: x.Driver, Key: x.Key, Argv: x.Argv})
	}
	return out
}

// DriverReports maps the report's drivers, in its order; the list is never
// nil.
func DriverReports(r *capabilities.Report) []DriverReport {
	out := []DriverReport{}
	for _, d := range r.Drivers {
		kinds := make([]string, len(d.Kinds))
		for i, k := range d.Kinds {
			kinds[i] = string(k)
		}
		out = append(out, DriverReport{
			Name: d.Name, Type: d.Type, Kinds: kinds, Doc: d.Doc, State: string(d.State),
			Reason: d.Reason, Version: d.Version, Path: d.Path, Command: d.Command, Withheld: d.Withheld,
		})
	}
	return out
}

// Available lists, for each of format, lint, check and test, the languages that
// have a working driver; every kind is present, with [] when none has one.
func Available(r *capabilities.Report) map[string][]string {
	out := map[string][]string{}
	for _, k := range engine.CapabilityKinds() {
		out[string(k)] = append([]string{}, r.Available[k]...)
	}
	return out
}
