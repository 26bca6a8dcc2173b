package capabilities

// This file defines [ProjectTrust]: what a report says of the root's
// project file, whether it applies and, when not, what trusting it would
// run.

import (
	"fmt"
	"io"
	"strings"

	"github.com/devbroker/devbroker/engine"
)

// ProjectTrust is, in a report, the root's project file (.devbroker.toml)
// and whether it applies. A file the user has not trusted applies not at
// all: the embedded defaults and the user's own configuration serve.
type ProjectTrust struct {
	// File is the project file's path; "" when the root has none.
	File string
	// Trusted is whether the user trusts the root: its project file
	// applies, and the drivers that run the repository's code may run.
	Trusted bool
	// Reason says, when not trusted, why and how to trust.
	Reason string
	// Runs are the commands the project file would run once trusted.
	Runs []ProjectRun
	// Home describes the configuration files of the user's tools that lie
	// inside the root ("the go command's env file (/home/me/.config/go/env)"):
	// the project's as far as trust goes, not used until it is trusted.
	Home []string
	// Warnings say what of the configuration could not be used, and why.
	Warnings []string
}

// ProjectRun is one command a project file names.
type ProjectRun struct {
	Driver string
	Key    string
	Argv   []string
}

// SetProject records what the report says of the project file.
func (s *Set) SetProject(p *ProjectTrust) {
	s.prober.mu.Lock()
	defer s.prober.mu.Unlock()
	s.prober.project = p
}

// Summary is the report's text about an untrusted project file, "" when
// the root has none or it is trusted.
func (p *ProjectTrust) Summary() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, w := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if !p.Untrusted() {
		return strings.TrimSuffix(b.String(), "\n")
	}
	b.WriteString(p.untrusted("\n  "))
	return b.String()
}

// untrusted says what of the configuration is ignored until the root is
// trusted, how to trust it, and what it would run then, each command
// after sep.
func (p *ProjectTrust) untrusted(sep string) string {
	var b strings.Builder
	if p.File != "" {
		fmt.Fprintf(&b, "%s is not trusted: none of it applies, the embedded defaults and your own configuration serve (%s).", p.File, p.Reason)
	} else {
		fmt.Fprintf(&b, "the root is not trusted (%s).", p.Reason)
	}
	if len(p.Home) > 0 {
		fmt.Fprintf(&b, " Configuration files of your tools lie inside the root, where whatever edits the root can write them, so they are not used until you trust it: %s.", strings.Join(p.Home, ", "))
	}
	if len(p.Runs) > 0 {
		b.WriteString(" Trusted, it would run:")
		for _, r := range p.Runs {
			fmt.Fprintf(&b, "%s%s: %s %s", sep, r.Driver, r.Key, strings.Join(r.Argv, " "))
		}
	}
	return b.String()
}

// Untrusted reports whether something of the root's configuration does
// not apply until the user trusts the root: its project file, or
// configuration files of the user's tools inside it.
func (p *ProjectTrust) Untrusted() bool {
	return p != nil && !p.Trusted && (p.File != "" || len(p.Home) > 0)
}

func (p *ProjectTrust) writeText(w io.Writer) {
	if s := p.Summary(); s != "" {
		fmt.Fprintln(w, s)
	}
}

// configNotes are the notes every format, lint and check answer carries
// about the root's configuration: the configuration's warnings, and what
// of it is ignored until the root is trusted, with how to trust it (the
// command line says the same once on stderr; MCP and editor answers carry
// it here).
func (s *Set) configNotes() []engine.Note {
	s.prober.mu.Lock()
	p := s.prober.project
	s.prober.mu.Unlock()
	if p == nil {
		return nil
	}
	var out []engine.Note
	for _, w := range p.Warnings {
		out = append(out, engine.Note{Kind: engine.NoteConfig, Message: "warning: " + w})
	}
	if p.Untrusted() {
		out = append(out, engine.Note{Kind: engine.NoteConfig, Message: p.untrusted(" ")})
	}
	return out
}
