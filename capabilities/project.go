package capabilities

// This file defines [ProjectTrust]: what a report says of the root's
// project file, whether it applies and, when not, what trusting it would
// run.

import (
	"fmt"
	"io"
	"strings"
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
}

// ProjectRun is one command a project file names.
type ProjectRun struct {
	Driver string
	Key    string
	Argv   []string
}

// SetProject records what the report says of the project file.
func (s *Set) SetProject(p *ProjectTrust) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.project = p
}

// Summary is the report's text about an untrusted project file, "" when
// the root has none or it is trusted.
func (p *ProjectTrust) Summary() string {
	if p == nil || p.Trusted || p.File == "" {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not trusted: none of it applies, the embedded defaults and your own configuration serve (%s).", p.File, p.Reason)
	if len(p.Runs) > 0 {
		b.WriteString(" Trusted, it would run:")
		for _, r := range p.Runs {
			fmt.Fprintf(&b, "\n  %s: %s %s", r.Driver, r.Key, strings.Join(r.Argv, " "))
		}
	}
	return b.String()
}

func (p *ProjectTrust) writeText(w io.Writer) {
	if s := p.Summary(); s != "" {
		fmt.Fprintln(w, s)
	}
}
