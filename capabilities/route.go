package capabilities

// This file decides which drivers serve a language's files for one kind:
// each slot of the language's list is served by its first alternative
// whose drivers all work. For lint and check, every slot answers for the
// files: a slot nothing served is unchecked for the language. For format,
// the first served slot formats, and the language is unchecked only when
// no slot is served.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// routing is a request's files by the drivers that serve them, and what
// no driver serves.
type routing struct {
	order     []string            // the serving drivers, in first-use order
	files     map[string][]string // driver → its files
	notes     map[string][]string // driver → the fallbacks it served
	unchecked []engine.DriverStatus
	// coverage says which files went without a driver and why: files no
	// language covers or whose language lists no driver for the kind,
	// and swept-in files a lenient entry left unserved.
	coverage []engine.Note
}

// routeFiles routes each target to the drivers of its language. swept
// (sorted) are the targets nobody asked for (engine.Request.Swept): a
// lenient entry nothing served leaves them uncovered, and only the others
// unchecked.
func (s *Set) routeFiles(kind engine.Kind, targets, swept []string) *routing {
	rf := &routing{files: map[string][]string{}, notes: map[string][]string{}}
	routes := map[string]route{}
	var langs, bare []string          // languages with unserved entries; those that list no driver
	unserved := map[string][]string{} // language → its files an entry left unserved
	unlisted := map[string][]string{} // language → its files, when it lists no driver for kind
	var uncovered []string            // files no language covers
	for _, p := range targets {
		lang := s.languageOf(p)
		if lang == nil {
			uncovered = append(uncovered, p)
			continue
		}
		rt, ok := routes[lang.name]
		if !ok {
			rt = s.route(lang, kind, false)
			routes[lang.name] = rt
		}
		if rt.empty {
			if len(unlisted[lang.name]) == 0 {
				bare = append(bare, lang.name)
			}
			unlisted[lang.name] = append(unlisted[lang.name], p)
			continue
		}
		if len(rt.unserved) > 0 {
			if len(unserved[lang.name]) == 0 {
				langs = append(langs, lang.name)
			}
			unserved[lang.name] = append(unserved[lang.name], p)
		}
		for _, dn := range rt.drivers {
			if _, seen := rf.files[dn]; !seen {
				rf.order = append(rf.order, dn)
			}
			rf.files[dn] = append(rf.files[dn], p)
			if n := rt.notes[dn]; n != "" && !slices.Contains(rf.notes[dn], n) {
				rf.notes[dn] = append(rf.notes[dn], n)
			}
		}
	}
	if len(uncovered) > 0 {
		rf.coverage = append(rf.coverage, engine.Note{
			Kind: engine.NoteNoLanguage, Files: len(uncovered), Paths: engine.FewPaths(uncovered),
			Message: fmt.Sprintf("%s not %s (%s): no configured language covers %s",
				count(len(uncovered), "file"), pastTense(kind), fewList(uncovered), them(len(uncovered))),
		})
	}
	for _, ln := range bare {
		fs := unlisted[ln]
		rf.coverage = append(rf.coverage, engine.Note{
			Kind: engine.NoteNotConfigured, Language: ln, Files: len(fs), Paths: engine.FewPaths(fs),
			Message: fmt.Sprintf("%s not %s (%s): %s lists no %s (languages.%s.%s is empty)",
				count(len(fs), ln+" file"), pastTense(kind), fewList(fs), ln, agentOf(kind), ln, kind),
		})
	}
	for _, ln := range langs {
		for _, u := range routes[ln].unserved {
			strict, loose := unserved[ln], []string(nil)
			if u.lenient {
				strict, loose = split(unserved[ln], swept)
			}
			if len(strict) > 0 {
				rf.unchecked = append(rf.unchecked, engine.DriverStatus{
					Driver: u.entry, Language: ln, Status: engine.StatusUnchecked,
					Message: uncheckedMessage(kind, ln, u, strict),
				})
			}
			if len(loose) > 0 {
				nk := engine.NoteMissing
				if u.untrusted {
					nk = engine.NoteUntrusted
				}
				rf.coverage = append(rf.coverage, engine.Note{
					Kind: nk, Language: ln, Driver: u.entry, Files: len(loose), Paths: engine.FewPaths(loose),
					Message: coverageMessage(kind, ln, u, loose),
				})
			}
		}
	}
	return rf
}

// split parts files into those not in swept (sorted) and those in it.
func split(files, swept []string) (asked, loose []string) {
	for _, p := range files {
		if _, ok := slices.BinarySearch(swept, p); ok {
			loose = append(loose, p)
		} else {
			asked = append(asked, p)
		}
	}
	return asked, loose
}

// route is how one language's files are served for one kind.
type route struct {
	// empty: the language lists no driver for the kind.
	empty bool
	// drivers are the serving drivers, in configuration order.
	drivers []string
	// notes holds, per serving driver that is a fallback, what it served
	// in place of what.
	notes map[string]string
	// unserved are the slots no working alternative served, each an
	// unchecked status for the language's files.
	unserved []unserved
}

// unserved is a slot, or for format the whole list, that nothing served.
type unserved struct {
	// entry is the slot in the configuration's syntax ("gopls | go-build
	// + go-vet"); for format, the list's entries joined by ", ".
	entry string
	// why says why each driver of its alternatives was not available.
	why []string
	// all: entry is a format list, none of whose slots was served.
	all bool
	// lenient: the embedded defaults' list named entry, no file of the
	// user's or the project's did (nor named the program of one of its
	// drivers), and every driver of its alternatives that could not
	// serve was never found (missing, not installed) or does not run
	// before the user trusts the root (untrusted: the defaults' own
	// driver, which would run the project's code). Such an entry leaves
	// the files a walk swept in uncovered (a coverage note) rather than
	// unchecked; one that was found but failed, or that a configuration
	// file names, is strict for every file.
	lenient bool
	// untrusted: a driver of the entry that could not serve is one that
	// runs only in a trusted root.
	untrusted bool
}

// route serves lang's files for kind. Every slot is served by its first
// alternative whose drivers all work and do kind. For lint and check,
// each slot that none served is unserved; for format, only the first slot
// so served runs, and only when none is served is the list unserved. With
// expect, a driver whose probe has not ended works when [Set.Expect]
// expects it to (what the servers advertise); a request's route, after its
// probes, never counts one.
func (s *Set) route(lang *language, kind engine.Kind, expect bool) route {
	slots := lang.byKind[kind]
	rt := route{empty: len(slots) == 0, notes: map[string]string{}}
	var entries, whyAll []string
	missingAll, untrustedAny := true, false
	for _, slot := range slots {
		entries = append(entries, slot.String())
		why, gone, served := s.serve(&rt, lang.name, slot, kind, expect)
		missing := gone.never && s.allStock(slot)
		if !served {
			rt.unserved = append(rt.unserved, unserved{entry: slot.String(), why: why, lenient: lang.defaulted[kind] && missing, untrusted: gone.untrusted})
			whyAll = append(whyAll, why...)
			missingAll = missingAll && missing
			untrustedAny = untrustedAny || gone.untrusted
		}
		if served && kind == engine.Format {
			break // the first served slot formats
		}
	}
	if kind == engine.Format && len(rt.unserved) > 0 {
		rt.unserved = nil
		if len(rt.drivers) == 0 {
			rt.unserved = []unserved{{entry: strings.Join(entries, ", "), why: whyAll, all: true, lenient: lang.defaulted[kind] && missingAll, untrusted: untrustedAny}}
		}
	}
	return rt
}

// allStock reports whether every driver of slot is as the embedded
// defaults define it: a configuration file that names a driver's program
// asks for that program.
func (s *Set) allStock(slot configs.Slot) bool {
	for _, dn := range slot.Drivers() {
		if !s.stock[dn] {
			return false
		}
	}
	return true
}

// absence says how the drivers that could not serve a slot were absent.
type absence struct {
	// never: every one of them never ran here: it was never found
	// (missing, not installed), or it runs only in a trusted root.
	never bool
	// untrusted: one of them runs only in a trusted root.
	untrusted bool
}

// serve serves slot with its first alternative whose drivers all work,
// adding them to rt's drivers, and reports whether it did; otherwise it
// says why each alternative could not, and how the drivers that could
// not were absent.
func (s *Set) serve(rt *route, lang string, slot configs.Slot, kind engine.Kind, expect bool) (why []string, gone absence, served bool) {
	gone.never = true
	for ai, alt := range slot {
		reasons, a := s.unusable(alt, kind, expect)
		if len(reasons) > 0 {
			why = append(why, reasons...)
			gone.never = gone.never && a.never
			gone.untrusted = gone.untrusted || a.untrusted
			continue
		}
		for _, dn := range alt {
			if slices.Contains(rt.drivers, dn) {
				continue // already serving for an earlier slot
			}
			rt.drivers = append(rt.drivers, dn)
			if len(why) > 0 {
				rt.notes[dn] = fmt.Sprintf("served %s files in place of %s (%s)", lang, slot[:ai].String(), strings.Join(why, "; "))
			}
		}
		return nil, absence{}, true
	}
	return why, gone, false
}

// unusable says why an alternative cannot serve kind: one reason per
// driver that is not working or does not do kind (its Spec lacks it, or
// its probe's Offers leave it out); none when it can. With expect, a
// driver not probed yet that [Set.Expect] expects to work counts as its
// expectation says. gone says whether every driver that cannot serve
// never ran here (its probe's state is missing or untrusted), and whether
// one is untrusted.
func (s *Set) unusable(alt []string, kind engine.Kind, expect bool) (out []string, gone absence) {
	gone.never = true
	for _, dn := range alt {
		if !supports(s.drivers[dn], kind) {
			out = append(out, fmt.Sprintf("%s does not %s", dn, verb(kind)))
			gone.never = false
			continue
		}
		s.prober.mu.Lock()
		p, probed := s.prober.probes[dn]
		if e, ok := s.prober.expected[dn]; !probed && expect && ok {
			p, probed = e, true
		}
		_, running := s.prober.running[dn]
		s.prober.mu.Unlock()
		switch {
		case !probed && running && !expect:
			// A request's route after its wait for the probe ran out
			// of time: the driver answers timeout (ready.go).
			continue
		case !probed:
			out = append(out, dn+" was not probed")
			gone.never = false
		case p.State == Found && !offers(s.drivers[dn], p, kind):
			out = append(out, fmt.Sprintf("%s does not offer %s", dn, kind))
			gone.never = false
		case p.State == Found:
			continue
		default:
			gone.never = gone.never && (p.State == Missing || p.State == Untrusted)
			gone.untrusted = gone.untrusted || p.State == Untrusted
			r := fmt.Sprintf("%s is %s", dn, p.State)
			if p.State == Failed {
				r = dn + " failed its probe"
			}
			if p.Reason != "" {
				r += ": " + p.Reason
			}
			if hint := s.install[dn]; hint != "" && p.State != Untrusted && !strings.Contains(r, hint) {
				r += "; install: " + hint
			}
			out = append(out, r)
		}
	}
	return out, gone
}

// uncheckedMessage says which of a language's files u left unserved, and
// why: "2 go files not linted by go-vet (a.go, b.go): go-vet is missing:
// ...". A format list none of whose slots was served says "not formatted".
func uncheckedMessage(kind engine.Kind, lang string, u unserved, files []string) string {
	const shown = 3
	list := strings.Join(files[:min(len(files), shown)], ", ")
	if n := len(files) - shown; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	noun := lang + " files"
	if len(files) == 1 {
		noun = lang + " file"
	}
	by := " by " + u.entry
	if u.all {
		by = ""
	}
	return fmt.Sprintf("%d %s not %s%s (%s): %s (see devbroker probe)", len(files), noun, pastTense(kind), by, list, strings.Join(u.why, "; "))
}

// coverageMessage says which swept-in files of a language a lenient
// entry left unserved, why (with how to install the driver, or to trust
// the root for one that runs only there), and how to stop asking for it. "1 yaml file not linted by yamllint
// (.github/ci.yml): yamllint is missing: ...; install: ...; or, to go
// without it, set lint = [] under [languages.yaml] in .devbroker.toml".
func coverageMessage(kind engine.Kind, lang string, u unserved, files []string) string {
	by := " by " + u.entry
	if u.all {
		by = ""
	}
	return fmt.Sprintf("%s not %s%s (%s): %s; or, to go without it, set %s = [] under [languages.%s] in .devbroker.toml or your own configuration (see devbroker probe)",
		count(len(files), lang+" file"), pastTense(kind), by, fewList(files), strings.Join(u.why, "; "), kind, lang)
}

// fewList names the first few of files, and counts the rest: "a, b, c
// and 2 more".
func fewList(files []string) string {
	list := strings.Join(engine.FewPaths(files), ", ")
	if n := len(files) - engine.NotePaths; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	return list
}

// count is "1 NOUN" or "n NOUNs".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// them is "it" or "them".
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// agentOf names what serves kind: a formatter, a linter, a checker.
func agentOf(kind engine.Kind) string {
	switch kind {
	case engine.Format:
		return "formatter"
	case engine.Lint:
		return "linter"
	}
	return "checker"
}

// verb is what a driver does for kind: "lint", "offer rename".
func verb(kind engine.Kind) string {
	if isLanguageKind(kind) {
		return "offer " + string(kind)
	}
	return string(kind)
}

func pastTense(kind engine.Kind) string {
	switch kind {
	case engine.Format:
		return "formatted"
	case engine.Lint:
		return "linted"
	}
	return "checked"
}
