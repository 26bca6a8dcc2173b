package lspdriver

import (
	"context"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// SetNoWatch turns the disk watchers of servers started from now on off
// (the portable mode: changes are found by the check of the inputs alone).
func SetNoWatch(off bool) {
	testHookConfig = nil
	if off {
		testHookConfig = func(c *lsp.Config) { c.NoWatch = true }
	}
}

// OnWaitingForLoad sets the hook called when a request's timeout ran out
// while its server was loading, so the request waits on.
func OnWaitingForLoad(f func()) { waitingForLoad = f }

// Floor returns a call that asks the driver's server req's definition or
// references directly, with the documents the driver shows it for req,
// and returns how many locations it answered: the server's own time,
// without the driver's view or conversion (BenchmarkNavigate's floor).
func Floor(ctx context.Context, d capabilities.Driver, req *capabilities.Request) (func() (int, error), error) {
	dr := d.(*Driver)
	pool, err := dr.pool(ctx, req.Root)
	if err != nil {
		return nil, err
	}
	srv := pool.Primary()
	v := dr.view(ctx, srv, dr.viewed(req))
	docs, q := v.list(), req.Query
	ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}}
	abs, pos := v.abs(q.Path), position(ms.get(q.Path), q.Line, q.Column)
	return func() (int, error) {
		var locs []lsp.Location
		if req.Kind == engine.Definition {
			locs, err = srv.Definition(ctx, docs, abs, pos)
		} else {
			locs, err = srv.References(ctx, docs, abs, pos, q.IncludeDeclaration)
		}
		return len(locs), err
	}, nil
}

// LanguageID is the language identifier d sends the file at workspace
// path p with.
func LanguageID(d capabilities.Driver, p string) string { return d.(*Driver).languageID(p) }

// Viewed lists the files a workspace symbol search shows d's server when
// the workspace has changed the files of changed.
func Viewed(d capabilities.Driver, changed []string) []string {
	return d.(*Driver).viewed(&capabilities.Request{Kind: engine.Symbols, Query: &engine.Query{}, Changed: changed}).Files
}

// JSXIDs are the LSP identifiers of the JSX forms, by extension.
var JSXIDs = jsxIDs

// SetLoadCeiling sets the load bound, in driver timeouts, until the test
// ends.
func SetLoadCeiling(t interface{ Cleanup(func()) }, n int) {
	old := LoadCeiling
	LoadCeiling = n
	t.Cleanup(func() { LoadCeiling = old })
}

// SetProgressTick sets how often an open phase is reported again, until
// the test ends.
func SetProgressTick(t interface{ Cleanup(func()) }, d time.Duration) {
	old := progressTick
	progressTick = d
	t.Cleanup(func() { progressTick = old })
}

// TestWait bounds a test's wait for an answer: generous for a loaded
// machine, and never what a test is about (the drivers' own timeouts are
// the configuration's).
const TestWait = 10 * time.Minute

// TakeLane takes, for the caller, a lane of the pool d holds for root (a
// check through d holds it first), as a request answering at the same
// time would, about content of its own that no request of the test has
// (a caller with the content of a taken lane waits for that lane); done
// gives it back.
func TakeLane(ctx context.Context, d capabilities.Driver, root string) (done func(), err error) {
	dr := d.(*Driver)
	pool, err := dr.pool(ctx, root)
	if err != nil {
		return nil, err
	}
	_, done, err = pool.Take(ctx, lsp.Want{State: map[string]string{"(held by the test)": "held"}})
	return done, err
}
