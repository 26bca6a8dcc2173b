package engine

// This file runs the language steps: definition, references, hover and
// symbols answer about the workspace; rename and code_actions' apply
// change it, all or nothing, and leave the change unwritten. A step that
// points at a symbol has it looked up in the file's outline first.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// ask runs one language request over the workspace and fails the step
// when no driver answered, or one answered incompletely.
func (e *Engine) ask(ctx context.Context, step StepName, q Query, r *Result) (*Response, error) {
	kind, _ := LookupStep(step)
	if e.caps == nil || !e.caps.Has(kind.Kind) {
		return nil, e.unavailable(string(step))
	}
	var req Request
	if q.Path != "" { // the step held the file, following the disk just now
		req = e.snapshot(kind.Kind)
	} else {
		req = e.request(kind.Kind, r)
	}
	req.Query = &q
	if q.Path != "" {
		req.Paths = []string{q.Path}
	}
	resp, err := e.caps.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	r.Drivers = append(r.Drivers, resp.Drivers...)
	r.addProjects(resp)
	if len(resp.Drivers) == 0 {
		why := "no language server for its language offers it"
		if len(resp.Diagnostics) > 0 {
			why = resp.Diagnostics[0].Message
		}
		what := "the workspace"
		if q.Path != "" {
			what = q.Path
		}
		return nil, fault.New(fault.Unavailable, "%s is not available for %s: %s (see devbroker probe); do not retry", step, what, why)
	}
	if err := declined(step, resp.Drivers); err != nil {
		return nil, err
	}
	if err := verdict(kind.Kind, &Response{Drivers: resp.Drivers}); err != nil {
		return nil, err
	}
	return resp, nil
}

// declined is the failure of a language request that its server answered
// by declining it (a rename to a name that conflicts, a place with
// nothing to rename, a change that leaves the root): the driver's status
// is unchecked with the server's reason. Nothing is installed or retried
// to fix that, so it is not an incomplete answer.
func declined(step StepName, ds []DriverStatus) error {
	for _, d := range ds {
		if d.Status == StatusUnchecked && d.Language == "" && d.Message != "" {
			return fault.New(fault.BadArgument, "%s declined by %s: %s; nothing was changed: change what its reason names (the place, the new name, the action) and try again", step, d.Driver, d.Message)
		}
	}
	return nil
}

// request is a request for kind over the whole workspace, the files the
// session did not change as the disk holds them now.
func (e *Engine) request(kind Kind, r *Result) Request {
	e.follow(r)
	return e.snapshot(kind)
}

// snapshot is a request for kind over the whole workspace as it is,
// without following the disk first: for a step that has just followed it
// ([Engine.hold]), so that the content it checked a position in is the
// content the server is shown.
func (e *Engine) snapshot(kind Kind) Request {
	req := Request{Kind: kind, Root: e.fs.Root(), Files: map[string]*text.Doc{}}
	for _, p := range e.ws.Paths() {
		d, _ := e.ws.Doc(p)
		req.Files[p] = d
	}
	for _, p := range e.ws.Unwritten() {
		if _, ok := req.Files[p]; ok {
			req.Changed = append(req.Changed, p)
		} else {
			req.Deleted = append(req.Deleted, p)
		}
	}
	return req
}

// follow reads again the held files with no unwritten change whose disk
// content changed, noting those that left the disk (a [NoteLeftDisk]).
func (e *Engine) follow(r *Result) {
	for _, l := range e.ws.FollowDiskAfterAcquire() {
		r.Coverage = append(r.Coverage, Note{Kind: NoteLeftDisk, Files: 1, Paths: []string{l.Path}, Message: l.Why})
	}
}

// hold acquires the file a step names, when the plan did not, after
// following the disk: a position, a symbol or a listed code action's
// revision is then read in the content the server will be shown.
func (e *Engine) hold(path string, r *Result) (string, error) {
	p, err := rootfs.Clean(path)
	if err != nil {
		return "", fault.Wrap(fault.BadArgument, err, "path")
	}
	e.follow(r)
	if _, ok := e.ws.Doc(p); ok {
		return p, nil
	}
	stale, err := e.ws.Acquire([]string{p})
	r.addStale(stale)
	if err != nil {
		return "", err
	}
	return p, nil
}

// point runs definition, references or hover.
func (e *Engine) point(ctx context.Context, i int, step StepName, at *At, q Query, r *Result) error {
	if err := e.resolve(ctx, at, &q, r); err != nil {
		return err
	}
	resp, err := e.ask(ctx, step, q, r)
	if err != nil {
		return err
	}
	a := Answer{Step: i, Name: step, Hover: resp.Hover}
	a.Locations, a.Omitted = capLocations(resp.Locations)
	a.Omitted += resp.Omitted
	r.Answers = append(r.Answers, a)
	return nil
}

// symbols runs symbols: a file's outline, or a workspace search.
func (e *Engine) symbols(ctx context.Context, i int, a *SymbolsArgs, r *Result) error {
	q := Query{Text: a.Query}
	if a.Path != "" {
		p, err := e.hold(a.Path, r)
		if err != nil {
			return err
		}
		q.Path = p
	}
	resp, err := e.ask(ctx, StepSymbols, q, r)
	if err != nil {
		return err
	}
	ans := Answer{Step: i, Name: StepSymbols, Symbols: resp.Symbols, ServerLimit: resp.ServerLimit}
	if n := len(ans.Symbols); n > MaxLocations && q.Path == "" {
		ans.Symbols, ans.Omitted = ans.Symbols[:MaxLocations], n-MaxLocations
	}
	r.Answers = append(r.Answers, ans)
	return nil
}

// resolve sets q's path and position from at: its line and column, or
// its symbol (on its line, or looked up in the file's outline: see
// [outlines]).
func (e *Engine) resolve(ctx context.Context, at *At, q *Query, r *Result) error {
	p, err := e.hold(at.Path, r)
	if err != nil {
		return err
	}
	q.Path = p
	switch {
	case at.Column != nil:
		q.Line, q.Column = *at.Line, *at.Column
		return e.onColumn(p, q.Line, q.Column)
	case at.Line != nil:
		return e.onLine(p, at.Symbol, *at.Line, q)
	}
	outline, err := e.outline(ctx, p, at.Symbol, r)
	if err != nil {
		return err
	}
	s, err := pickSymbol(outline, at.Symbol, p)
	if err != nil {
		return err
	}
	q.Line, q.Column = s.Line, s.Column
	return nil
}

// inFile checks that line is a line of the file.
func (e *Engine) inFile(p string, line int) error {
	doc, _ := e.ws.Doc(p)
	if n := doc.Len(); line > n {
		return fault.New(fault.Bounds, "line %d is past the end of %s, which has %d lines", line, p, n)
	}
	return nil
}

// onColumn checks that line is a line of the file and col a column of
// it: at most one past its last character.
func (e *Engine) onColumn(p string, line, col int) error {
	if err := e.inFile(p, line); err != nil {
		return err
	}
	doc, _ := e.ws.Doc(p)
	if n := utf8.RuneCountInString(doc.Line(line - 1).Text); col > n+1 {
		return fault.New(fault.Bounds, "column %d is past the end of line %d of %s, which has %d characters: %s", col, line, p, n, clip(doc.Line(line-1).Text))
	}
	return nil
}

// onLine points q at the first whole-word occurrence of symbol's last
// name on line.
func (e *Engine) onLine(p, symbol string, line int, q *Query) error {
	if err := e.inFile(p, line); err != nil {
		return err
	}
	doc, _ := e.ws.Doc(p)
	s := doc.Line(line - 1).Text
	name := symbol[strings.LastIndex(symbol, ".")+1:]
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return fault.New(fault.NotFound, "%q is not on line %d of %s, which reads: %s", name, line, p, clip(s))
		}
		i += off
		if wordAt(s, i, len(name)) {
			q.Line, q.Column = line, utf8.RuneCountInString(s[:i])+1
			return nil
		}
		off = i + len(name)
	}
}

// wordAt reports whether s[i:i+n] is not part of a longer identifier.
func wordAt(s string, i, n int) bool {
	before, _ := utf8.DecodeLastRuneInString(s[:i])
	after, _ := utf8.DecodeRuneInString(s[i+n:])
	ident := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	return (i == 0 || !ident(before)) && (i+n == len(s) || !ident(after))
}

// pickSymbol finds symbol in an outline: a dotted path matches the
// symbol's whole name or its end ("Server.Start" matches
// "(*Server).Start"), a plain name the last part of a name. An ambiguous
// symbol lists the candidates.
func pickSymbol(outline []Symbol, symbol, path string) (Symbol, error) {
	want := plainName(symbol)
	var exact, tail []Symbol
	for _, s := range outline {
		n := plainName(s.Name)
		switch {
		case n == want:
			exact = append(exact, s)
		case strings.HasSuffix(n, "."+want):
			tail = append(tail, s)
		}
	}
	found := exact
	if len(found) == 0 {
		found = tail
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var names []string
		for _, s := range outline {
			if len(names) == 12 {
				names = append(names, "...")
				break
			}
			names = append(names, s.Name)
		}
		return Symbol{}, fault.New(fault.NotFound, "no symbol %q in %s; its outline has: %s. Give a name from it (Type.Method for a method), or line and column", symbol, path, strings.Join(names, ", "))
	}
	var cands []string
	for _, s := range found {
		cands = append(cands, fmt.Sprintf("%s (%s, line %d)", s.Name, s.Kind, s.Line))
	}
	return Symbol{}, fault.New(fault.Ambiguous, "symbol %q is ambiguous in %s: %s. Give a dotted path (Type.Method), or the line with symbol", symbol, path, strings.Join(cands, "; "))
}

// plainName drops a receiver's decoration: "(*Server).Start" is
// "Server.Start".
func plainName(s string) string { return undecorate.Replace(s) }

// undecorate drops the characters of a receiver's decoration.
var undecorate = strings.NewReplacer("(", "", ")", "", "*", "")

// capLocations sorts locations, drops repeats and keeps MaxLocations;
// the int counts the rest (a capability's own count, Response.Omitted,
// comes on top).
func capLocations(locs []Location) ([]Location, int) {
	sort.SliceStable(locs, func(i, j int) bool {
		a, b := locs[i], locs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	out := locs[:0]
	for i, l := range locs {
		if i > 0 && l == locs[i-1] {
			continue
		}
		out = append(out, l)
	}
	if n := len(out); n > MaxLocations {
		return out[:MaxLocations], n - MaxLocations
	}
	return out, 0
}

// clip shortens a line for a message.
func clip(s string) string {
	s = strings.TrimSpace(s)
	n := 120
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."

}
