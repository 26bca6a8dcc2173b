package lsp

// This file defines how one barrier answers several callers of
// [Server.Diagnose] waiting for the server's turn at once (sessions of a
// root checking at the same moment: see [Sharing]).
//
// A server answers one request at a time, and each request first brings
// it to the caller's documents: callers with different unwritten content
// each cost the server a new state, analyzed anew. Callers whose
// documents agree can share one state: the caller whose turn comes (the
// leader) takes along every waiting caller whose documents are
// compatible with its own and the others taken, sends the union of their
// documents, settles once, and gives each caller its own [Report].
//
// Documents are compatible when every document two callers both send has
// the same text (and the same language and disk flag), and every document
// only some of them send is at disk content ([Document.OnDisk]): a caller
// that does not send it would see the disk's file, the same bytes. The
// state the server answers about is then each caller's content exactly.
// A document one caller sends at disk content was read from the disk
// during that caller's request, though, and another caller must see the
// disk as of its own: so such a document is shared only when the disk
// still holds it once every caller waits ([Document.Current] reads it
// again), and the check of the inputs before the shared turn is one that
// began after every caller's request began ([Began]), so that the server
// was told of every other change any of them must see. Anything unknown
// (a caller without [Began], a document that cannot be read again, a
// request alongside navigation's check) leaves the caller to its own turn.
//
// The callers of a shared turn hold one lane of a pool together
// ([Sharing]): each waits, before it asks for the turn, until every other
// holder has asked (or given the lane back), so that one turn takes them
// all.
//
// Each caller's Report has the diagnostics of every file, as the
// leader's; its Versions are those of its own documents, and the other
// callers' documents are among its Kept (documents at disk content the
// server has open besides the request's: see [closedLike] in
// lspdriver), as they would be had they been left open by an earlier
// request. Only servers settled by gopls's barrier share a turn: their
// answer is about the server's whole state, whichever files are asked.

import (
	"context"
	"slices"
	"strings"
	"time"
)

// holder is a caller that took a lane of a pool sharing it ([Sharing]).
// It is not of size zero: each is a distinct key.
type holder struct{ _ byte }

// holderKey is the context key of Sharing.
type holderKey struct{}

// Sharing returns ctx marked as a request that only asks a pool's lane
// for diagnostics ([Server.Diagnose], once): [Pool.Take] may hand it a lane
// that other such requests with the same content hold, or take those
// waiting along, and one turn of the server may answer them all.
func Sharing(ctx context.Context) context.Context {
	return context.WithValue(ctx, holderKey{}, &holder{})
}

func holderOf(ctx context.Context) *holder {
	h, _ := ctx.Value(holderKey{}).(*holder)
	return h
}

// expect records that h holds the server's lane and has not yet asked:
// the callers holding it wait for each other before taking the turn, so
// that one turn answers them all. Called by the pool.
func (s *Server) expect(h *holder) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	if s.expected == nil {
		s.expected = map[*holder]bool{}
	}
	s.expected[h] = true
}

// arrive records that h asked, or gave its lane back.
func (s *Server) arrive(h *holder) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	if !s.expected[h] {
		return
	}
	delete(s.expected, h)
	if s.arrived != nil {
		close(s.arrived)
		s.arrived = nil
	}
}

// gather waits until no holder of the lane but those that asked is yet
// to ask (the callers of one shared turn are then all waiting), until w
// is answered, until the server closes (a holder may then never ask), or
// until ctx ends. It never holds the turn while it waits.
func (s *Server) gather(ctx context.Context, w *waiter) error {
	h := holderOf(ctx)
	if h == nil {
		return nil
	}
	s.arrive(h)
	for {
		s.waitMu.Lock()
		if len(s.expected) == 0 {
			s.waitMu.Unlock()
			return nil
		}
		if s.arrived == nil {
			s.arrived = make(chan struct{})
		}
		ch := s.arrived
		s.waitMu.Unlock()
		select {
		case <-ch:
		case <-w.done:
			return errServed
		case <-s.done:
			return ErrClosed
		case <-ctx.Done():
			return s.gaveUp(ctx)
		}
	}
}

// waiter is a call of Diagnose waiting for the server's turn.
type waiter struct {
	ctx   context.Context
	docs  []Document
	files []string
	began time.Time // its request's start (Began), zero when unknown

	// Set by the leader that takes it, before done is closed.
	done chan struct{}
	rep  *Report
	err  error
}

// batchHooks, when set (by tests), are told the callers of each shared
// turn (the leader first), by their documents, and when a caller starts
// waiting.
type batchHooks struct {
	shared  func(docs [][]Document)
	waiting func(n int)
}

// wait registers a call of Diagnose as waiting for the server's turn.
func (s *Server) wait(ctx context.Context, docs []Document, files []string) *waiter {
	w := &waiter{ctx: ctx, docs: docs, files: files, done: make(chan struct{})}
	if b, ok := ctx.Value(beganKey{}).(time.Time); ok {
		w.began = b
	}
	s.waitMu.Lock()
	s.waiting = append(s.waiting, w)
	n := len(s.waiting)
	hook := s.hooks.waiting
	s.waitMu.Unlock()
	if hook != nil {
		hook(n)
	}
	return w
}

// unwait takes w off the waiting callers (it has the turn, or gave up).
func (s *Server) unwait(w *waiter) {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	s.waiting = slices.DeleteFunc(s.waiting, func(o *waiter) bool { return o == w })
}

// candidates returns the waiting callers whose documents are compatible
// with lead's and each other's, in the order they came. Called with the
// semaphore held, by the leader, which is no longer waiting.
func (s *Server) candidates(lead *waiter) []*waiter {
	if alongsideOf(lead.ctx, s) != nil || lead.began.IsZero() {
		return nil
	}
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	union := docMap(lead.docs)
	var out []*waiter
	for _, w := range s.waiting {
		if w.ctx.Err() != nil || w.began.IsZero() || alongsideOf(w.ctx, s) != nil || !compatible(union, w.docs) {
			continue
		}
		for _, d := range w.docs {
			union[d.Path] = d
		}
		out = append(out, w)
	}
	return out
}

// flushContext is ctx for the check of the inputs before a turn shared
// with cands: marked with the latest start among the callers, so that only
// a check that began after every one of their requests began is taken
// for theirs (see [Began]).
func flushContext(ctx context.Context, lead *waiter, cands []*waiter) context.Context {
	if len(cands) == 0 {
		return ctx
	}
	latest := lead.began
	for _, w := range cands {
		if w.began.After(latest) {
			latest = w.began
		}
	}
	return context.WithValue(ctx, beganKey{}, latest)
}

// take chooses, among cands (after the check of the inputs), the callers
// that share lead's turn: each one whose documents only some of the
// callers send are all unchanged on disk since the request of every
// caller sending them began. It takes them off the waiting callers (a
// call not among them any longer gave up). Called with the semaphore
// held.
func (s *Server) take(lead *waiter, cands []*waiter) []*waiter {
	var out []*waiter
	group := []*waiter{lead}
	for _, c := range cands {
		if shareable(append(slices.Clone(group), c)) {
			group = append(group, c)
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil
	}
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	kept := out[:0]
	for _, w := range out {
		if w.ctx.Err() != nil || !slices.Contains(s.waiting, w) {
			continue
		}
		s.waiting = slices.DeleteFunc(s.waiting, func(o *waiter) bool { return o == w })
		kept = append(kept, w)
	}
	return kept
}

// shareable reports whether the disk still holds every document only
// some of group send ([Document.Current]): the callers that do not send
// it see the disk's file, as it is now.
func shareable(group []*waiter) bool {
	count := map[string]int{}
	for _, w := range group {
		for _, d := range w.docs {
			count[d.Path]++
		}
	}
	checked := map[string]bool{}
	for _, w := range group {
		for _, d := range w.docs {
			if count[d.Path] == len(group) || checked[d.Path] {
				continue
			}
			if !d.OnDisk || d.Current == nil || !d.Current() {
				return false
			}
			checked[d.Path] = true
		}
	}
	return true
}

// docMap indexes docs by path.
func docMap(docs []Document) map[string]Document {
	m := make(map[string]Document, len(docs))
	for _, d := range docs {
		m[d.Path] = d
	}
	return m
}

// compatible reports whether docs can be sent with the documents of
// union: the same document wherever both send one, and at disk content
// where only one does.
func compatible(union map[string]Document, docs []Document) bool {
	mine := docMap(docs)
	if len(mine) != len(docs) {
		return false
	}
	for _, d := range docs {
		o, ok := union[d.Path]
		if !ok {
			if !d.OnDisk {
				return false
			}
			continue
		}
		if o.Text != d.Text || o.OnDisk != d.OnDisk || o.LanguageID != d.LanguageID {
			return false
		}
	}
	for p, o := range union {
		if _, ok := mine[p]; !ok && !o.OnDisk {
			return false
		}
	}
	return true
}

// merged is the union of the documents of lead and taken, sorted by path.
func merged(lead *waiter, taken []*waiter) []Document {
	union := docMap(lead.docs)
	for _, w := range taken {
		for _, d := range w.docs {
			union[d.Path] = d
		}
	}
	out := make([]Document, 0, len(union))
	for _, d := range union {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Document) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// share gives each caller of a shared turn its own Report, made from the
// turn's rep, and lets it go.
func share(rep *Report, err error, taken []*waiter) {
	for _, w := range taken {
		w.rep, w.err = reportFor(rep, w.docs), err
		close(w.done)
	}
}

// reportFor is rep as the caller sending docs gets it: its own documents'
// versions, the turn's other documents among the kept ones, and its own
// stale documents.
func reportFor(rep *Report, docs []Document) *Report {
	if rep == nil {
		return nil
	}
	own := map[string]bool{}
	for _, d := range docs {
		own[d.Path] = true
	}
	out := cloneFiles(rep)
	out.Versions = map[string]int{}
	out.Kept = slices.Clone(rep.Kept)
	for p, v := range rep.Versions {
		if own[p] {
			out.Versions[p] = v
		} else {
			out.Kept = append(out.Kept, p)
		}
	}
	slices.Sort(out.Kept)
	for _, p := range rep.Stale {
		if own[p] {
			out.Stale = append(out.Stale, p)
		}
	}
	out.Settle, out.Indexing, out.Progress = rep.Settle, rep.Indexing, rep.Progress
	return out
}
