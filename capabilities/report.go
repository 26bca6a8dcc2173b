package capabilities

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/devbroker/devbroker/engine"
)

// Report is what the probe found: per driver, and per capability the
// languages that have a working driver. It has no json tags: broker/wire
// maps it to the one encoding every surface sends.
type Report struct {
	Drivers []DriverReport
	// Available maps format, lint and check to the languages that a
	// working driver (or alternative) serves for it.
	Available map[engine.Kind][]string
	// Project is the root's project file and whether it applies; nil
	// when the set was built without one in mind.
	Project *ProjectTrust
}

// DriverReport is one driver's line of the report.
type DriverReport struct {
	Name  string
	Type  string
	Kinds []engine.Kind
	Doc   string
	Probe
}

// Report returns the latest probe results.
func (s *Set) Report() *Report {
	r := &Report{Available: map[engine.Kind][]string{}}
	s.mu.Lock()
	r.Project = s.project
	s.mu.Unlock()
	names := make([]string, 0, len(s.drivers))
	for n := range s.drivers {
		names = append(names, n)
	}
	sort.Strings(names)
	s.mu.Lock()
	for _, n := range names {
		sp := s.drivers[n].Spec()
		p, ok := s.probes[n]
		if !ok {
			p = s.unprobed(n)
		}
		r.Drivers = append(r.Drivers, DriverReport{Name: n, Type: sp.Type, Kinds: sp.Kinds, Doc: sp.Doc, Probe: p})
	}
	s.mu.Unlock()
	for _, kind := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		r.Available[kind] = []string{}
		for i := range s.langs {
			if len(s.route(&s.langs[i], kind).drivers) > 0 {
				r.Available[kind] = append(r.Available[kind], s.langs[i].name)
			}
		}
	}
	return r
}

// WriteText writes the report as text: what the project file's trust
// means (when it is not trusted), a table of the drivers (an untrusted
// driver with the command it would run), and per capability the languages
// served. It is the report's one text form: devbroker probe prints it, and
// the MCP probe tool answers with it.
func (r *Report) WriteText(w io.Writer) error {
	r.Project.writeText(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DRIVER\tTYPE\tKINDS\tSTATE\tVERSION\tPATH / REASON")
	for _, d := range r.Drivers {
		kinds := make([]string, len(d.Kinds))
		for i, k := range d.Kinds {
			kinds[i] = string(k)
		}
		where := d.Path
		if d.State != Found {
			where = d.Reason
		}
		if d.State == Untrusted && len(d.Command) > 0 {
			where += "; it would run: " + strings.Join(d.Command, " ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Type, strings.Join(kinds, ","), d.State, oneLine(d.Version), where)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, kind := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		langs := r.Available[kind]
		if len(langs) == 0 {
			fmt.Fprintf(w, "%s: unavailable\n", kind)
			continue
		}
		fmt.Fprintf(w, "%s: %s\n", kind, strings.Join(langs, ", "))
	}
	return nil
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
