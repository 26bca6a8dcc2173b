package capabilities

// This file decides which drivers serve a language's files for one kind:
// each slot of the language's list is served by its first alternative
// whose drivers all work, and a language none of whose slots is served is
// unchecked.

import (
	"fmt"
	"slices"
	"strings"

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
	unserved := map[string][]string{} // language → its files no driver served
	for _, p := range targets {
		lang := s.languageOf(p)
		if lang == nil {
			rf.infos = append(rf.infos, info(p, fmt.Sprintf("no %s driver: no configured language covers this file type", kind)))
			continue
		}
		rt, ok := routes[lang.name]
		if !ok {
			rt = s.route(lang, kind)
			routes[lang.name] = rt
		}
		switch {
		case rt.empty:
			rf.infos = append(rf.infos, info(p, fmt.Sprintf("no %s driver for %s files", kind, lang.name)))
			continue
		case len(rt.drivers) == 0:
			if len(unserved[lang.name]) == 0 {
				langs = append(langs, lang.name)
			}
			unserved[lang.name] = append(unserved[lang.name], p)
			continue
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
		rt := routes[ln]
		rf.unchecked = append(rf.unchecked, engine.DriverStatus{
			Driver: rt.slots, Language: ln, Status: engine.StatusUnchecked,
			Message: uncheckedMessage(kind, ln, unserved[ln], rt.unserved),
		})
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
	// slots is the language's list for the kind, in the configuration's
	// syntax, and unserved says why each driver of an unserved slot was
	// not available (for the unchecked status).
	slots    string
	unserved []string
}

// route serves lang's files for kind. Every slot is served by its first
// alternative whose drivers all work and do kind; for format, only the
// first slot so served runs.
func (s *Set) route(lang *language, kind engine.Kind) route {
	slots := lang.byKind[kind]
	rt := route{empty: len(slots) == 0, notes: map[string]string{}}
	names := make([]string, len(slots))
	for i, slot := range slots {
		names[i] = slot.String()
	}
	rt.slots = strings.Join(names, ", ")
	for _, slot := range slots {
		var why []string // the reasons the earlier alternatives did not serve
		served := false
		for ai, alt := range slot {
			reasons := s.unusable(alt, kind)
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
					rt.notes[dn] = fmt.Sprintf("served %s files in place of %s (%s)", lang.name, slot[:ai].String(), strings.Join(why, "; "))
				}
			}
			served = true
			break
		}
		if !served {
			rt.unserved = append(rt.unserved, why...)
		}
		if served && kind == engine.Format {
			break // the first served slot formats
		}
	}
	if len(rt.drivers) > 0 {
		rt.unserved = nil
	}
	return rt
}

// unusable says why an alternative cannot serve kind: one reason per
// driver that is not working or does not do kind; none when it can.
func (s *Set) unusable(alt []string, kind engine.Kind) []string {
	var out []string
	for _, dn := range alt {
		if !supports(s.drivers[dn], kind) {
			out = append(out, fmt.Sprintf("%s does not %s", dn, kind))
			continue
		}
		s.mu.Lock()
		p, probed := s.probes[dn]
		s.mu.Unlock()
		switch {
		case !probed:
			out = append(out, dn+" was not probed")
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
			if hint := s.install[dn]; hint != "" && !strings.Contains(r, hint) {
				r += "; install: " + hint
			}
			out = append(out, r)
		}
	}
	return out
}

// uncheckedMessage says which of a language's files no driver served and
// why.
func uncheckedMessage(kind engine.Kind, lang string, files, why []string) string {
	const shown = 3
	list := strings.Join(files[:min(len(files), shown)], ", ")
	if n := len(files) - shown; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	noun := lang + " files"
	if len(files) == 1 {
		noun = lang + " file"
	}
	return fmt.Sprintf("%d %s not %s (%s): %s (see devbroker probe)", len(files), noun, pastTense(kind), list, strings.Join(why, "; "))
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
