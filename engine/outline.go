package engine

// This file defines the session's outlines: the symbols a symbol lookup
// got from the server for a file's content, so that the next lookup in
// the same content does not ask again.

import (
	"context"
	"sync"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// maxOutlines bounds the files whose outline a session keeps.
const maxOutlines = 32

// outlines keeps, per file, the outline its last symbol lookup got and
// the content it was asked for. An outline is the document's own: its
// symbols are declared in its text, at positions in it, so the same
// content has the same outline, and a lookup in it takes the position
// from the kept one. A file whose content changed since (an edit, a
// rename, a change on disk the workspace followed) is asked again. Only
// complete answers are kept; the least recently used file goes first.
type outlines struct {
	mu     sync.Mutex
	byPath map[string]*outline
	tick   uint64
}

// outline is one file's kept outline.
type outline struct {
	doc     *text.Doc // the content it is the outline of
	symbols []Symbol
	drivers []DriverStatus // the statuses of the drivers that answered
	used    uint64
}

// get returns the outline kept for the file at p with content doc.
func (o *outlines) get(p string, doc *text.Doc) (*outline, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ol, ok := o.byPath[p]
	if !ok || doc == nil || !ol.doc.Equal(doc) {
		return nil, false
	}
	o.tick++
	ol.used = o.tick
	return ol, true
}

// put keeps ol as the outline of the file at p, dropping the least
// recently used file's past maxOutlines.
func (o *outlines) put(p string, ol *outline) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.byPath == nil {
		o.byPath = map[string]*outline{}
	}
	o.tick++
	ol.used = o.tick
	o.byPath[p] = ol
	if len(o.byPath) <= maxOutlines {
		return
	}
	oldest := ""
	for q, c := range o.byPath {
		if oldest == "" || c.used < o.byPath[oldest].used {
			oldest = q
		}
	}
	delete(o.byPath, oldest)
}

// outline returns the outline of the held file at p, from the session's
// outlines when they hold it for its content, else from the server
// (adding the answering drivers to r either way).
func (e *Engine) outline(ctx context.Context, p, symbol string, r *Result) ([]Symbol, error) {
	doc, _ := e.ws.Doc(p)
	if ol, ok := e.outlines.get(p, doc); ok {
		r.Drivers = append(r.Drivers, ol.drivers...)
		return ol.symbols, nil
	}
	resp, err := e.ask(ctx, StepSymbols, Query{Path: p}, r)
	if err != nil {
		return nil, fault.Wrap(fault.KindOf(err), err, "looking up symbol %q in %s's outline (give line and column instead)", symbol, p)
	}
	// The content the server was shown (the same but when the request
	// followed the disk).
	if doc, ok := e.ws.Doc(p); ok {
		e.outlines.put(p, &outline{doc: doc, symbols: resp.Symbols, drivers: resp.Drivers})
	}
	return resp.Symbols, nil
}
