package capabilities

import (
	"context"
	"fmt"
	"io"
	"slices"
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
	// working driver (or alternative) serves for it, and each language
	// kind (engine.LanguageKinds) to the languages whose intelligence
	// list has a working server that offers it.
	Available map[engine.Kind][]string
	// Answering maps each language kind to the languages of Available,
	// each with the server that answers it: Answering[engine.Rename]["go"]
	// is "gopls". What each server offers is its DriverReport's Offers.
	Answering map[engine.Kind]map[string]string
	// Project is the root's project file and whether it applies; nil
	// when the set was built without one in mind.
	Project *ProjectTrust
	// Root is the root the drivers serve; "" when unknown.
	Root string
}

// DriverReport is one driver's line of the report.
type DriverReport struct {
	Name  string
	Type  string
	Kinds []engine.Kind
	Doc   string
	// Install is, for a driver the probe found missing, how to install
	// its tool (the configuration's install hint); "" otherwise.
	Install string
	// URL is the address of the tool's documentation (the
	// configuration's url); "" when it has none.
	URL string
	// Withheld says, for a found driver that does not answer about some
	// files of a root the user has not trusted (a C language server whose
	// files would make it read outside the root: [Withholder]), which and
	// why; "" otherwise.
	Withheld string
	Probe
}

// Report returns the latest probe results.
func (s *Set) Report() *Report { return s.report(context.Background(), false) }

// ReportWithheld is [Set.Report] with, for each found driver that does
// not answer about some files of a root the user has not trusted
// ([Withholder]), which files and why: it scans the root, so it is the
// probe's answer, not every request's.
func (s *Set) ReportWithheld(ctx context.Context) *Report { return s.report(ctx, true) }

// report is the report; withheld: with what drivers withhold.
func (s *Set) report(ctx context.Context, withheld bool) *Report {
	r := &Report{Available: map[engine.Kind][]string{}, Answering: map[engine.Kind]map[string]string{}, Root: s.root}
	s.prober.mu.Lock()
	r.Project = s.prober.project
	s.prober.mu.Unlock()
	names := make([]string, 0, len(s.drivers))
	for n := range s.drivers {
		names = append(names, n)
	}
	sort.Strings(names)
	s.prober.mu.Lock()
	for _, n := range names {
		sp := s.drivers[n].Spec()
		p, ok := s.prober.probes[n]
		var install string
		switch {
		case !ok:
			p = s.unprobed(n)
		case p.State == Missing:
			install = s.install[n]
		}
		r.Drivers = append(r.Drivers, DriverReport{Name: n, Type: sp.Type, Kinds: sp.Kinds, Doc: sp.Doc, Install: install, URL: s.urls[n], Probe: p})
	}
	s.prober.mu.Unlock()
	for i := range r.Drivers {
		d := &r.Drivers[i]
		if w, ok := s.drivers[d.Name].(Withholder); ok && withheld && d.State == Found {
			d.Withheld = w.Withheld(ctx)
		}
	}
	for _, kind := range reportedKinds() {
		r.Available[kind] = []string{}
		if isLanguageKind(kind) {
			r.Answering[kind] = map[string]string{}
		}
		for i := range s.langs {
			dn := s.serving(&s.langs[i], kind, false)
			if dn == "" {
				continue
			}
			r.Available[kind] = append(r.Available[kind], s.langs[i].name)
			if isLanguageKind(kind) {
				r.Answering[kind][s.langs[i].name] = dn
			}
		}
	}
	return r
}

// reportedKinds are the kinds a report lists: format, lint, check, then
// the language kinds.
func reportedKinds() []engine.Kind {
	return append(engine.CapabilityKinds(), engine.LanguageKinds()...)
}

// WriteText writes the report as text: what the project file's trust
// means (when it is not trusted), a table of the drivers (an untrusted
// driver with the command it would run; a found one with the kinds its
// tool offers), and per capability the languages served (for a language
// kind, each with its server), and last the commands that fix what is missing (see
// writeFixes). It is the report's one text form: devbroker probe
// prints it, and the MCP probe tool answers with it.
func (r *Report) WriteText(w io.Writer) error {
	r.Project.writeText(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DRIVER\tTYPE\tKINDS\tSTATE\tVERSION\tPATH / REASON")
	for _, d := range r.Drivers {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", d.Name, d.Type, textKinds(d), d.State, oneLine(d.Version), textWhere(d))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, d := range r.Drivers {
		if d.Withheld != "" {
			fmt.Fprintf(w, "%s: %s\n", d.Name, d.Withheld)
		}
	}
	for _, kind := range reportedKinds() {
		langs := slices.Clone(r.Available[kind])
		if len(langs) == 0 {
			fmt.Fprintf(w, "%s: unavailable\n", kind)
			continue
		}
		for i, l := range langs {
			if dn := r.Answering[kind][l]; dn != "" {
				langs[i] += " (" + dn + ")"
			}
		}
		fmt.Fprintf(w, "%s: %s\n", kind, strings.Join(langs, ", "))
	}
	r.writeFixes(w)
	return nil
}

// textKinds is a driver's KINDS column: the kinds its tool offers, the
// language kinds as one word, intelligence (the configuration's key),
// when it offers them all.
func textKinds(d DriverReport) string {
	var kinds, lang []string
	for _, k := range d.Kinds {
		switch {
		case d.Offers != nil && !slices.Contains(d.Offers, k):
		case isLanguageKind(k):
			lang = append(lang, string(k))
		default:
			kinds = append(kinds, string(k))
		}
	}
	if len(lang) == len(engine.LanguageKinds()) {
		lang = []string{"intelligence"}
	}
	return strings.Join(append(kinds, lang...), ",")
}

// textWhere is a driver's PATH / REASON column: where a found driver is,
// or why the others are not, kept to a line a reader takes in at a
// glance. What the "to fix:" block says (how to install a missing tool,
// how to trust the root) is left to it; the structured report keeps the
// whole reason.
func textWhere(d DriverReport) string {
	switch {
	case d.State == Found:
		return d.Path
	case d.State == Untrusted:
		where := "not run before you trust the root"
		if len(d.Command) > 0 {
			where += "; it would run: " + strings.Join(d.Command, " ")
		}
		return where
	case d.Install != "" && strings.Contains(d.Reason, d.Install):
		return strings.Replace(d.Reason, d.Install, "see to fix", 1)
	}
	return d.Reason
}

// writeFixes writes, when something is missing, a "to fix:" block: per
// install hint, the missing drivers it installs and the hint; and when
// the root is not trusted (its project file, or drivers that run the
// repository's code), the trust command.
func (r *Report) writeFixes(w io.Writer) {
	var hints []string
	drivers := map[string][]string{}
	untrusted := r.Project.Untrusted()
	for _, d := range r.Drivers {
		if d.State == Untrusted || d.Withheld != "" {
			untrusted = true
		}
		if d.Install == "" {
			continue
		}
		if drivers[d.Install] == nil {
			hints = append(hints, d.Install)
		}
		drivers[d.Install] = append(drivers[d.Install], d.Name)
	}
	if len(hints) == 0 && !untrusted {
		return
	}
	fmt.Fprintln(w, "to fix:")
	for _, h := range hints {
		fmt.Fprintf(w, "  install %s: %s\n", strings.Join(drivers[h], ", "), h)
	}
	if untrusted {
		fmt.Fprintf(w, "  trust the root, once you have reviewed it (and its .devbroker.toml, if any): devbroker trust %s\n", shellWord(r.Root))
	}
}

// shellWord quotes s for a POSIX shell when it needs quoting; "" is the
// current directory.
func shellWord(s string) string {
	if s == "" {
		return "."
	}
	if strings.IndexFunc(s, func(c rune) bool {
		return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@", c)
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
