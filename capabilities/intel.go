package capabilities

// This file routes the language kinds (definition, references, hover,
// symbols, rename, code_actions): a request about a file goes to the
// first server of its language's intelligence list that the probe found
// working and that offers the kind (Probe.Offers, nil for every kind of
// its Spec), probed in order when needed; a workspace symbol search goes
// to such a server of every language with files under the root, and
// their answers are merged. Without a server the answer names no driver
// and says why in one info diagnostic.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine"
)

// isLanguageKind reports whether kind is one of engine.LanguageKinds.
func isLanguageKind(kind engine.Kind) bool {
	return slices.Contains(engine.LanguageKinds(), kind)
}

// offers reports whether a driver found working offers kind: its Spec
// has the kind and its probe's Offers, when set, lists it.
func offers(d Driver, p Probe, kind engine.Kind) bool {
	return supports(d, kind) && (p.Offers == nil || slices.Contains(p.Offers, kind))
}

// answerer is the first server of lang's intelligence list that was found
// working and offers kind; "" and why not for each, when none. With
// probe, it waits for the probe of each server it considers, in order, so
// that the servers after the one that answers are not probed for it; it
// fails only when ctx ends. Without, it probes nothing, and with expect a
// server not probed yet counts as [Set.Expect] expects it to (see
// [Set.route]).
func (s *Set) answerer(ctx context.Context, lang *language, kind engine.Kind, probe, expect bool) (string, []string, error) {
	var why []string
	for _, dn := range lang.intel {
		if probe && supports(s.drivers[dn], kind) {
			// Waited for until the driver's timeout runs out (ready.go):
			// a server whose probe still runs then answers timeout.
			if err := s.waitProbes(ctx, []string{dn}, map[string]time.Time{dn: peekBegin(ctx, dn)}); err != nil {
				return "", nil, err
			}
		}
		if r, _ := s.unusable([]string{dn}, kind, expect && !probe); len(r) > 0 {
			why = append(why, r...)
			continue
		}
		return dn, nil, nil
	}
	return "", why, nil
}

// runLanguage answers a language kind: about req.Query.Path's file, or a
// workspace symbol search when it is "".
func (s *Set) runLanguage(ctx context.Context, req engine.Request) (*engine.Response, error) {
	q := req.Query
	if q == nil {
		q = &engine.Query{}
		if len(req.Paths) == 1 {
			q.Path = req.Paths[0]
		}
	}
	if q.Path == "" && req.Kind == engine.Symbols {
		return s.searchSymbols(ctx, req, q)
	}
	lang := s.languageOf(q.Path)
	if lang == nil {
		return noServer(q.Path, "no configured language covers its file type"), nil
	}
	if len(lang.intel) == 0 {
		return noServer(q.Path, fmt.Sprintf("no language server is configured for %s files (languages.%s.intelligence is empty)", lang.name, lang.name)), nil
	}
	dn, why, err := s.answerer(ctx, lang, req.Kind, true, false)
	if err != nil {
		return nil, err
	}
	if dn == "" {
		msg := strings.Join(why, "; ")
		if len(why) > 1 {
			msg = fmt.Sprintf("no language server for %s files offers %s: %s", lang.name, req.Kind, msg)
		}
		return noServer(q.Path, msg), nil
	}
	resp := &engine.Response{}
	r := s.ask(ctx, dn, 0, 1, req, q, []string{q.Path})
	s.answer(resp, dn, r)
	if r.Withheld {
		// About the language's files, as an unserved entry is: unchecked,
		// not declined.
		resp.Drivers[len(resp.Drivers)-1].Language = lang.name
	}
	return resp, nil
}

// searchSymbols runs a workspace symbol search on the first server that
// offers symbols of each language present under the root or in the
// workspace, each server once, and merges their answers in the order of
// the languages.
func (s *Set) searchSymbols(ctx context.Context, req engine.Request, q *engine.Query) (*engine.Response, error) {
	var servers, names, why []string
	for _, ln := range s.searched(req) {
		lang := s.langByName(ln)
		if len(lang.intel) == 0 {
			continue
		}
		names = append(names, ln)
		dn, w, err := s.answerer(ctx, lang, engine.Symbols, true, false)
		if err != nil {
			return nil, err
		}
		for _, r := range w {
			if !slices.Contains(why, r) { // a server two languages share
				why = append(why, r)
			}
		}
		if dn != "" && !slices.Contains(servers, dn) {
			servers = append(servers, dn)
		}
	}
	if len(servers) == 0 {
		msg := "no language under the root has a language server configured (languages.NAME.intelligence)"
		if len(names) > 0 {
			msg = fmt.Sprintf("no language server for the languages under the root (%s) offers symbols: %s", strings.Join(names, ", "), strings.Join(why, "; "))
		}
		return noServer("", msg), nil
	}
	done := make([]*Result, len(servers))
	var wg sync.WaitGroup
	for i, dn := range servers {
		wg.Go(func() { done[i] = s.ask(ctx, dn, i, len(servers), req, q, nil) })
	}
	wg.Wait()
	resp := &engine.Response{}
	for i, dn := range servers {
		s.answer(resp, dn, done[i])
	}
	return resp, nil
}

// searched lists, in configuration order, the languages a workspace
// search covers: those with files under the root ([Set.Present], walked
// once per set) and those of the workspace's files.
func (s *Set) searched(req engine.Request) []string {
	seen := map[string]bool{}
	for _, ln := range s.presentLangs() {
		seen[ln] = true
	}
	for p := range req.Files {
		if l := s.languageOf(p); l != nil {
			seen[l.name] = true
		}
	}
	var out []string
	for i := range s.langs {
		if seen[s.langs[i].name] {
			out = append(out, s.langs[i].name)
		}
	}
	return out
}

func (s *Set) langByName(name string) *language {
	for i := range s.langs {
		if s.langs[i].name == name {
			return &s.langs[i]
		}
	}
	return nil
}

// ask runs server dn, the i-th of a request's n, on files.
func (s *Set) ask(ctx context.Context, dn string, i, n int, req engine.Request, q *engine.Query, files []string) *Result {
	end := phase(ctx, req.Kind, dn, i, n, len(files))
	at := begins(ctx, []string{dn})[dn]
	var r *Result
	if s.probing(dn) {
		r = s.stillProbing(dn, at)
	} else {
		r = safeRun(forDriver(ctx, at), s.drivers[dn], &Request{
			Kind: req.Kind, Root: req.Root, Files: files, All: req.Files,
			Changed: req.Changed, Deleted: req.Deleted, Query: q,
		})
	}
	if r.Status == "" {
		r.Status = engine.StatusOK
	}
	end(r.Status)
	return r
}

// answer adds server dn's result to resp, with its status.
func (s *Set) answer(resp *engine.Response, dn string, r *Result) {
	resp.Drivers = append(resp.Drivers, engine.DriverStatus{Driver: dn, Status: r.Status, Message: r.Message})
	addProjects(resp, dn, r)
	for _, d := range r.Diagnostics {
		if d.Source == "" {
			d.Source = dn
		}
		resp.Diagnostics = append(resp.Diagnostics, d)
	}
	resp.Locations = append(resp.Locations, r.Locations...)
	resp.Omitted += r.Omitted
	resp.Symbols = append(resp.Symbols, r.Symbols...)
	resp.ServerLimit = max(resp.ServerLimit, r.ServerLimit)
	resp.Actions = append(resp.Actions, r.Actions...)
	resp.Renames = append(resp.Renames, r.Renames...)
	if r.Hover != "" {
		resp.Hover = strings.TrimPrefix(resp.Hover+"\n\n"+r.Hover, "\n\n")
	}
	if r.Edits != nil {
		resp.Edits, resp.Bases = r.Edits, r.Bases // one server answers a change
	}
}

// noServer is the answer of a language kind that no server answers: no
// driver, and why in an info diagnostic.
func noServer(p, why string) *engine.Response {
	return &engine.Response{Output: engine.Output{Diagnostics: []engine.Diagnostic{info(p, why)}}}
}
