package lsp

// This file defines [Server.Diagnose] and the settle step: how devbroker
// knows that the diagnostics it holds describe the content it sent.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// DiagnoseFilesCommand is gopls's command that diagnoses the given files'
// snapshot and returns only after it has published the diagnostics.
const DiagnoseFilesCommand = "gopls.diagnose_files"

// Settle names how a request's diagnostics were made current.
type Settle string

// Ways of settling, in order of preference.
const (
	SettleBarrier Settle = "barrier" // gopls.diagnose_files
	SettleRequest Settle = "request" // tsserver's synchronous diagnostics
	SettlePull    Settle = "pull"    // textDocument/diagnostic per file
	SettlePush    Settle = "push"    // version-gated publishes and progress end
	// SettleReused: the answer gopls gave before for the same documents,
	// all at disk content, with nothing changed on disk since (reuse.go).
	SettleReused Settle = "reused"
)

// Report is the diagnostics of one settled request.
type Report struct {
	// Files holds diagnostics by absolute path: for the documents the
	// request sent, those for the version sent; for other files (closed,
	// on disk) the server's latest. Files without diagnostics may be
	// absent.
	Files map[string][]Diagnostic
	// Versions is the version each document of the request was sent at.
	// A document at disk content ([Document.OnDisk]) was sent with one
	// more newline at its end: a position past the end of its text is
	// its end.
	Versions map[string]int
	// Kept lists the documents of earlier requests the server still has
	// open at disk content (absolute paths). Their diagnostics are the
	// server's latest, as for closed files, but a server may report more
	// for an open document than for a closed one.
	Kept []string
	// Settle says how the answer was made current.
	Settle Settle
	// Stale lists documents whose diagnostics for the version sent did not
	// arrive in time (only with an error).
	Stale []string
	// Indexing is set when the server had work-done progress running when
	// the request ended; Progress names it.
	Indexing bool
	Progress string
}

// Diagnose brings the server to docs, settles, and reports the
// diagnostics of files (absolute paths; the documents among them are
// always included) and of every other file the server published for.
// A call waiting for the server's turn may be answered by another's, when
// their documents agree (batch.go).
//
// On a timeout it returns the partial Report with an error wrapping
// context.DeadlineExceeded; Report.Indexing says whether the server was
// still indexing. A dead server gives ErrExited, a missing one
// ErrNotInstalled.
func (s *Server) Diagnose(ctx context.Context, docs []Document, files []string) (*Report, error) {
	for {
		w := s.wait(ctx, docs, files)
		rep, err := s.diagnose(ctx, w)
		if !errors.Is(err, errServed) {
			return rep, err
		}
		// Answered by another caller's turn. If that turn ran out of its
		// caller's time, not this one's, this one asks again.
		if w.err != nil && ctx.Err() == nil && (errors.Is(w.err, context.DeadlineExceeded) || errors.Is(w.err, context.Canceled)) {
			continue
		}
		return w.rep, w.err
	}
}

// diagnose is one call of Diagnose, w, waiting for its turn: it answers
// w (and the callers that share its turn), or returns errServed when
// another's turn answered it.
func (s *Server) diagnose(ctx context.Context, w *waiter) (rep *Report, err error) {
	t := s.timing("diagnose")
	if err := s.gather(ctx, w); err != nil {
		s.unwait(w)
		return nil, err
	}
	var cands []*waiter
	in, err := s.acquireFor(ctx, w.done, func(in *instance) context.Context {
		s.unwait(w)
		if in.offers(DiagnoseFilesCommand) {
			cands = s.candidates(w)
		}
		return flushContext(ctx, w, cands)
	})
	s.unwait(w)
	if err != nil {
		return nil, err
	}
	defer s.release()
	// The callers taken along get their answers before the turn ends.
	taken := s.take(w, cands)
	docs, files := w.docs, w.files
	if len(taken) > 0 {
		docs, files = merged(w, taken), slices.Clone(files)
		for _, o := range taken {
			files = append(files, o.files...)
		}
		s.waitMu.Lock()
		hook := s.hooks.shared
		s.waitMu.Unlock()
		if hook != nil {
			group := [][]Document{w.docs}
			for _, o := range taken {
				group = append(group, o.docs)
			}
			hook(group)
		}
		defer func() {
			share(rep, err, taken)
			rep = reportFor(rep, w.docs)
		}()
	}
	t.acquired()
	defer func() { t.done(rep, err) }()
	// gopls reports the barrier's work under the token it is given: until
	// it begins it, the server is still busy with what came before (its
	// load, the documents opened for the request), which the request's
	// timeout does not count (see Progress.Queued).
	tok := ""
	if in.offers(DiagnoseFilesCommand) {
		tok = in.ownToken()
		defer in.queue(tok, DiagnoseFilesCommand)()
	}
	if err := s.sync(ctx, in, docs, true); err != nil {
		return nil, err
	}
	t.synced()
	want, kept := s.versions()
	rep = &Report{Files: map[string][]Diagnostic{}, Versions: map[string]int{}, Kept: kept}
	for u, v := range want {
		rep.Versions[Path(u)] = v
	}
	uris := make([]string, 0, len(files)+len(docs))
	for _, f := range files {
		uris = append(uris, URI(f))
	}
	for u := range want {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	uris = slices.Compact(uris)

	var pulled map[string][]Diagnostic
	switch {
	case in.offers(DiagnoseFilesCommand):
		if s.reuse(in, uris, rep) {
			return rep, nil
		}
		rep.Settle = SettleBarrier
		err = in.call(ctx, "workspace/executeCommand", executeCommandParams{
			Command:       DiagnoseFilesCommand,
			Arguments:     []any{map[string]any{"files": uris}},
			WorkDoneToken: tok,
		}, nil)
		if err == nil {
			err = in.waitUntil(ctx, func() bool { return in.current(want) })
		}
	case in.offers(TSServerRequestCommand):
		// typescript-language-server: its pushes carry no version.
		rep.Settle = SettleRequest
		pulled, err = in.tsserverPull(ctx, slices.Sorted(maps.Keys(want)))
	default:
		// A server may register pull diagnostics after initialize, and
		// then stop pushing for open documents (pyright does): waiting on
		// pushes also ends when it registers them.
		rep.Settle = SettlePush
		if !in.pulls() {
			err = in.waitUntil(ctx, func() bool {
				return in.current(want) && len(in.progress) == 0 || in.pullsLocked()
			})
		}
		if err == nil && in.pulls() {
			rep.Settle = SettlePull
			pulled, err = in.pull(ctx, uris)
		}
	}
	rep.Indexing, rep.Progress = in.indexing()
	in.collect(rep, want, pulled)
	if err == nil && rep.Settle == SettleBarrier {
		s.remember(in, uris, rep)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			what := "diagnostics"
			if rep.Indexing {
				what = "diagnostics (the server is still busy: " + rep.Progress + ")"
			}
			return rep, fmt.Errorf("%s: waiting for %s: %w", in.name, what, err)
		}
		return rep, err
	}
	return rep, nil
}

// methodDiagnostic is LSP 3.17's pull request for one document.
const methodDiagnostic = "textDocument/diagnostic"

// pull asks for the diagnostics of each URI. The server answers for the
// content it has, which is the synced content: no version check needed.
func (in *instance) pull(ctx context.Context, uris []string) (map[string][]Diagnostic, error) {
	pulled := map[string][]Diagnostic{}
	for _, u := range uris {
		var r documentDiagnosticReport
		if err := in.call(ctx, methodDiagnostic, documentDiagnosticParams{TextDocument: textDocumentIdentifier{URI: u}}, &r); err != nil {
			return pulled, err
		}
		pulled[u] = r.Items
		for ru, rr := range r.RelatedDocuments {
			if rr.Kind == "full" {
				pulled[ru] = rr.Items
			}
		}
	}
	return pulled, nil
}

// pulls reports whether the server offers pull diagnostics, in its
// capabilities or by registration.
func (in *instance) pulls() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.pullsLocked()
}

func (in *instance) pullsLocked() bool {
	return provided(in.caps.DiagnosticProvider) || len(in.pullRegs) > 0
}

// offers reports whether the server offers command.
func (in *instance) offers(command string) bool {
	return in.caps.ExecuteCommandProvider != nil && slices.Contains(in.caps.ExecuteCommandProvider.Commands, command)
}

// current reports whether every document in want has diagnostics
// published for its version. Called with in.mu held.
func (in *instance) current(want map[string]int) bool {
	for u, v := range want {
		if p, ok := in.diags[u]; !ok || p.version != v {
			return false
		}
	}
	return true
}

// collect fills rep from the published (or pulled) diagnostics. Documents
// whose published version is not the one sent are left out and listed as
// stale. A pulled answer holds only what was pulled: a server that is
// pulled may still push, without a version, for a document closed since
// (typescript-language-server does), and such a push describes content
// that is gone.
func (in *instance) collect(rep *Report, want map[string]int, pulled map[string][]Diagnostic) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for u, p := range in.diags {
		path := Path(u)
		if path == "" || pulled != nil {
			continue
		}
		if v, open := want[u]; open && p.version != v {
			continue
		}
		if len(p.diags) > 0 {
			rep.Files[path] = slices.Clone(p.diags)
		}
	}
	for u, ds := range pulled {
		if path := Path(u); path != "" {
			if len(ds) > 0 {
				rep.Files[path] = ds
			} else {
				delete(rep.Files, path)
			}
		}
	}
	for u, v := range want {
		if pulled != nil {
			if _, ok := pulled[u]; !ok {
				rep.Stale = append(rep.Stale, Path(u))
			}
			continue
		}
		if p, ok := in.diags[u]; !ok || p.version != v {
			rep.Stale = append(rep.Stale, Path(u))
		}
	}
	slices.Sort(rep.Stale)
}

// timing measures one request for the debug log: the wait for the
// server's turn (and its start), the sync of the documents, and the rest
// (the settle), so that a queue behind other callers shows apart from the
// server's own work.
type timing struct {
	s                 *Server
	what              string
	begun, turn, sent time.Time
}

func (s *Server) timing(what string) *timing {
	return &timing{s: s, what: what, begun: time.Now()}
}

func (t *timing) acquired() { t.turn = time.Now() }
func (t *timing) synced()   { t.sent = time.Now() }

func (t *timing) done(rep *Report, err error) {
	if !t.s.log.Enabled(context.Background(), -4) { // slog.LevelDebug
		return
	}
	end := time.Now()
	settle := ""
	if rep != nil {
		settle = string(rep.Settle)
	}
	synced := t.sent
	if synced.IsZero() {
		synced = end
	}
	t.s.log.Debug("request timing", "request", t.what, "server", t.s.cfg.Name, "root", t.s.cfg.Root,
		"wait_ms", t.turn.Sub(t.begun).Milliseconds(), "sync_ms", synced.Sub(t.turn).Milliseconds(),
		"settle_ms", end.Sub(synced).Milliseconds(), "settle", settle, "err", err != nil)
}
