package lsp

// This file defines the reuse of an answer about the disk's own state.
//
// "Break something, then put it back": when every document the server
// has open holds the disk's bytes ([Document.OnDisk], kept ones
// included), the diagnostics describe the disk, and gopls's answer is a
// function of what it reads: the documents, the disk under the root, and
// what lies outside the root (the module cache, GOROOT), which it never
// re-reads without being told either. So when a request brings the server
// back to the same documents, asks about the same files, and nothing has
// changed on disk since the answer given for them, that answer is the
// answer: gopls is not asked again ([SettleReused]). The documents are
// still synced (the server keeps what the request states).
//
// "Nothing changed on disk" is the verification's word (verify.go): the
// metadata of every input, inside the root and out, checked before every
// request. Any change found (or told by [Server.FilesChanged] or the
// watcher) drops the answer, and so does a check that could not verify
// every input. Only a complete answer is kept: settled by the barrier,
// nothing stale, the server not busy. A restart starts a new instance,
// which never reuses another's answer.
//
// Nor is an answer with an error kept: errors are where what the watcher
// cannot see shows (a module missing from the module cache, a go.sum
// entry, a package the go command could not load), and a download since
// could change them. The put-back this is for goes back to a state that
// built.

import (
	"maps"
	"slices"
)

// diskAnswer is an answer about documents all at disk content.
type diskAnswer struct {
	in   *instance
	uris []string             // the files asked about, sorted
	docs map[string]sentState // by URI: every open document
	rep  *Report
}

// sentState is what the server has of one open document.
type sentState struct {
	text string
	kept bool
}

// diskState returns the open documents when every one of them is at disk
// content, else nil. Called with the semaphore held.
func (s *Server) diskState() map[string]sentState {
	out := make(map[string]sentState, len(s.docs))
	for u, d := range s.docs {
		if !d.OnDisk {
			return nil
		}
		out[u] = sentState{text: d.sent, kept: d.kept}
	}
	return out
}

// remember keeps rep (settled by the barrier) for reuse, in place of the
// answer kept before, when it is a complete answer about documents all at
// disk content, and the check of the inputs verified them all. Another answer leaves the
// kept one: it describes other documents, and only the disk changing
// (or another process) makes it wrong.
func (s *Server) remember(in *instance, uris []string, rep *Report) {
	docs := s.diskState()
	if docs == nil || rep.Indexing || len(rep.Stale) > 0 || hasErrors(rep) || !s.track.verified() {
		return
	}
	s.atDisk = &diskAnswer{in: in, uris: uris, docs: docs, rep: cloneFiles(rep)}
}

// reuse fills rep from the kept answer and reports true when it answers
// this request: the same server process, the same files asked about, the
// same open documents, all at disk content, and nothing changed on disk
// since (any change found drops the kept answer: see flushDisk), every
// input verified. rep's versions and kept documents are the request's own.
func (s *Server) reuse(in *instance, uris []string, rep *Report) bool {
	a := s.atDisk
	if a == nil || a.in != in || !slices.Equal(a.uris, uris) || !s.track.verified() {
		return false
	}
	if docs := s.diskState(); docs == nil || !maps.Equal(docs, a.docs) {
		return false
	}
	rep.Files = cloneFiles(a.rep).Files
	rep.Settle = SettleReused
	return true
}

// hasErrors reports whether rep holds an error (or a diagnostic without
// a severity, which a client may take for one).
func hasErrors(rep *Report) bool {
	for _, ds := range rep.Files {
		for _, d := range ds {
			if d.Severity == SeverityError || d.Severity == 0 {
				return true
			}
		}
	}
	return false
}

// cloneFiles returns a copy of rep whose Files share nothing with rep's.
func cloneFiles(rep *Report) *Report {
	out := &Report{Files: make(map[string][]Diagnostic, len(rep.Files))}
	for p, ds := range rep.Files {
		out.Files[p] = slices.Clone(ds)
	}
	return out
}
