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
	infos     []engine.Diagnostic // files no language covers or lists a driver for
}

// routeFiles routes each target to the drivers of its language.
func (s *Set) routeFiles(kind engine.Kind, targets []string) *routing {
	rf := &routing{files: map[string][]string{}, notes: map[string][]string{}}
	routes := map[string]route{}
	var langs []string
	unserved := map[string][]string{} // language → its files a slot left unserved
	for _, p := range targets {
		lang := s.languageOf(p)
		if lang == nil {
			rf.infos = append(rf.infos, info(p, fmt.Sprintf("no %s driver: no configured language covers this file type", kind)))
			continue
		}
		rt, ok := routes[lang.name]
		if !ok {
			rt = s.route(lang, kind, false)
			routes[lang.name] = rt
		}
		if rt.empty {
			rf.infos = append(rf.infos, info(p, fmt.Sprintf("no %s driver for %s files", kind, lang.name)))
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
	for _, ln := range langs {
		for _, u := range routes[ln].unserved {
			rf.unchecked = append(rf.unchecked, engine.DriverStatus{
				Driver: u.entry, Language: ln, Status: engine.StatusUnchecked,
				Message: uncheckedMessage(kind, ln, u, unserved[ln]),
			})
		}
	}
	return rf
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
	for _, slot := range slots {
		entries = append(entries, slot.String())
		why, served := s.serve(&rt, lang.name, slot, kind, expect)
		if !served {
			rt.unserved = append(rt.unserved, unserved{entry: slot.String(), why: why})
			whyAll = append(whyAll, why...)
		}
		if served && kind == engine.Format {
			break // the first served slot formats
		}
	}
	if kind == engine.Format && len(rt.unserved) > 0 {
		rt.unserved = nil
		if len(rt.drivers) == 0 {
			rt.unserved = []unserved{{entry: strings.Join(entries, ", "), why: whyAll, all: true}}
		}
	}
	return rt
}

// serve serves slot with its first alternative whose drivers all work,
// adding them to rt's drivers, and reports whether it did; otherwise it
// says why each alternative could not.
func (s *Set) serve(rt *route, lang string, slot configs.Slot, kind engine.Kind, expect bool) (why []string, served bool) {
	for ai, alt := range slot {
		reasons := s.unusable(alt, kind, expect)
		if len(reasons) > 0 {
			why = append(why, reasons...)
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
		return nil, true
	}
	return why, false
}

// unusable says why an alternative cannot serve kind: one reason per
// driver that is not working or does not do kind (its Spec lacks it, or
// its probe's Offers leave it out); none when it can. With expect, a
// driver not probed yet that [Set.Expect] expects to work counts as its
// expectation says.
func (s *Set) unusable(alt []string, kind engine.Kind, expect bool) []string {
	var out []string
	for _, dn := range alt {
		if !supports(s.drivers[dn], kind) {
			out = append(out, fmt.Sprintf("%s does not %s", dn, verb(kind)))
			continue
		}
		s.mu.Lock()
		p, probed := s.probes[dn]
		if e, ok := s.expected[dn]; !probed && expect && ok {
			p, probed = e, true
		}
		s.mu.Unlock()
		s.mu.Lock()
		_, running := s.running[dn]
		s.mu.Unlock()
		switch {
		case !probed && running && !expect:
			// A request's route after its wait for the probe ran out
			// of time: the driver answers timeout (ready.go).
			continue
		case !probed:
			out = append(out, dn+" was not probed")
		case p.State == Found && !offers(s.drivers[dn], p, kind):
			out = append(out, fmt.Sprintf("%s does not offer %s", dn, kind))
		case p.State == Found:
			continue
		default:
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
	return out
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
