package mcp

// This file defines the tool profiles: which of the server's tools a
// client is offered. Every profile reaches every step (dev_plan runs them
// all); they differ in which steps are also tools of their own, in
// whether the tools that work on files on disk are offered, and in
// whether tools declare output schemas.

import (
	"fmt"
	"slices"
	"strings"
)

// Profile names a set of tools the server offers.
type Profile string

// The profiles.
const (
	// ProfileDefault is dev_plan, which runs every step, with edit_file
	// for changes on disk by exact text and the commonest single steps
	// (check, search), discard and probe: a surface a model reads at a
	// glance, for clients with no file tools of their own.
	ProfileDefault Profile = "default"
	// ProfileLean is for clients with their own tools to read, search and
	// edit files (Claude Code, Codex CLI, Gemini CLI): no second read or
	// edit tool, but dev_plan, check and the language server's tools,
	// with discard and probe.
	ProfileLean Profile = "lean"
	// ProfileFull is one tool per step, edit_file with read_file and
	// write_file, discard and probe, each with its output schema.
	ProfileFull Profile = "full"
)

// profiles lists every profile, the default first.
var profiles = []Profile{ProfileDefault, ProfileLean, ProfileFull}

// profileTools lists the tools each profile offers besides the full one,
// which offers every tool.
var profileTools = map[Profile][]string{
	ProfileDefault: {"dev_plan", "edit_file", "check", "search", "discard", "probe"},
	ProfileLean:    {"dev_plan", "check", "definition", "references", "hover", "symbols", "rename", "code_actions", "discard", "probe"},
}

// ParseProfile returns the profile named s; "" is the default.
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return ProfileDefault, nil
	}
	if p := Profile(s); slices.Contains(profiles, p) {
		return p, nil
	}
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = string(p)
	}
	return "", fmt.Errorf("unknown tool profile %q: give one of %s", s, strings.Join(names, ", "))
}

// orDefault is p, or the default profile when p is empty.
func (p Profile) orDefault() Profile {
	if p == "" {
		return ProfileDefault
	}
	return p
}

// Offers reports whether the profile offers the tool name (when the
// root's drivers serve what it needs).
func (p Profile) Offers(name string) bool {
	p = p.orDefault()
	if p == ProfileFull {
		return slices.Contains(ToolNames(), name)
	}
	return slices.Contains(profileTools[p], name)
}

// Tools lists the tools the profile may offer, in listing order.
func (p Profile) Tools() []string {
	var out []string
	for _, name := range ToolNames() {
		if p.Offers(name) {
			out = append(out, name)
		}
	}
	return out
}

// outputSchemas reports whether the profile's tools declare output
// schemas. Only the full profile's do: a client validates structured
// content only against a declared schema (the TypeScript SDK's client
// takes any object without one), and one result's schema is several
// kilobytes, repeated by every tool that answers it. The results are the
// same in every profile.
func (p Profile) outputSchemas() bool { return p.orDefault() == ProfileFull }
