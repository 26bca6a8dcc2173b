package wire

// This file defines the parts of a probe answer both wires send. Each wire
// wraps them in its own ProbeResult: MCP adds the tools it advertises, the
// editor endpoint the plan steps available.

import (
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// DriverReport is one driver's line of the probe report.
type DriverReport struct {
	Name    string   `json:"name"`
	Type    string   `json:"type" jsonschema:"gofumpt, staticcheck, lsp or external"`
	Kinds   []string `json:"kinds" jsonschema:"what the driver does: format, lint, check"`
	State   string   `json:"state" jsonschema:"found, missing, failed or untrusted (the project's configuration names this command and the user has not trusted the root; it does not run)"`
	Reason  string   `json:"reason,omitempty" jsonschema:"why a driver is not found, and what to do"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
	Command []string `json:"command,omitempty" jsonschema:"for an untrusted driver, the command it would run"`
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
			Name: d.Name, Type: d.Type, Kinds: kinds, State: string(d.State),
			Reason: d.Reason, Version: d.Version, Path: d.Path, Command: d.Command,
		})
	}
	return out
}

// Available lists, for each of format, lint and check, the languages that
// have a working driver; every kind is present, with [] when none has one.
func Available(r *capabilities.Report) map[string][]string {
	out := map[string][]string{}
	for _, k := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		out[string(k)] = append([]string{}, r.Available[k]...)
	}
	return out
}
