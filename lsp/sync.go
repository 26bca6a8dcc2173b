package lsp

// This file defines document synchronization: bringing the server's open
// documents to exactly the set a request states.

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"go.lsp.dev/uri"
)

// URI is the file URI of an absolute path.
func URI(path string) string { return string(uri.File(path)) }

// Path is the absolute path of a file URI, or "" for another scheme.
func Path(u string) string {
	parsed, err := uri.Parse(u)
	if err != nil || !isFileURI(u) {
		return ""
	}
	return parsed.Filename()
}

func isFileURI(u string) bool { return len(u) > 7 && u[:7] == "file://" }

// maxKept bounds the documents kept open at disk content after the
// requests that named them; beyond it the least recently named are
// closed.
const maxKept = 32

// Documents at disk content ([Document.OnDisk]).
//
// gopls takes a document whose content becomes the disk's (a put-back:
// broken, then restored) for a save, and a closed document whose content
// was not the disk's for a change on disk: either way it runs go mod tidy
// again before its next diagnostics, which on a module with dependencies
// costs more than the type check itself. devbroker's "disk content" is no
// save: nothing changed on disk. So for diagnostics a document at disk
// content is sent with one more newline at its end ([padOnDisk]): the
// same Go source, positions unchanged but for the end of the file, which
// callers clamp to their text's end. Edits (formatting, fixes) are asked
// of the exact text.
//
// Such a document is also not closed when a request leaves it out: it is
// kept open, which is what the server would read on disk, until the disk
// changes under it (the watcher or FilesChanged reports its path: see
// [Server.dropChanged]) or more than maxKept are kept. A kept document is
// not part of a request's documents: its diagnostics are the server's
// latest, as for a closed file, and [Report.Kept] lists it.

// padOnDisk is the text sent for diagnostics of a document at disk
// content.
func padOnDisk(text string) string { return text + "\n" }

// sync opens, changes and closes documents so that the server has docs
// open, each at the content given (a document at disk content padded
// when pad is set), besides documents kept at disk content. Changed
// documents get a new version. Called with the semaphore held.
func (s *Server) sync(ctx context.Context, in *instance, docs []Document, pad bool) error {
	s.requests++
	want := make(map[string]Document, len(docs))
	for _, d := range docs {
		want[URI(d.Path)] = d
	}
	if err := s.leave(ctx, in, want); err != nil {
		return err
	}
	for _, d := range docs {
		u := URI(d.Path)
		text := d.Text
		if pad && d.OnDisk {
			text = padOnDisk(text)
		}
		if d.OnDisk && s.flushed[u] {
			// Read before the change this turn's check of the disk
			// found, perhaps: sent as the request states it, but not
			// kept as the disk's (left out later, it is closed).
			d.OnDisk = false
		}
		od, open := s.docs[u]
		switch {
		case !open:
			s.version++
			s.docs[u] = &openDoc{Document: d, version: s.version, sent: text, used: s.requests}
			if err := s.notify(ctx, in, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: u, LanguageID: d.LanguageID, Version: s.version, Text: text}}); err != nil {
				return err
			}
			continue
		case od.sent != text:
			s.version++
			od.sent, od.version = text, s.version
			if err := s.notify(ctx, in, "textDocument/didChange", didChangeParams{
				TextDocument:   versionedTextDocumentIdentifier{URI: u, Version: s.version},
				ContentChanges: []contentChange{{Text: text}},
			}); err != nil {
				return err
			}
		}
		od.Document, od.kept, od.used = d, false, s.requests
	}
	return nil
}

// leave closes the open documents that are not in want, but for those at
// disk content, which are kept, up to maxKept of them.
func (s *Server) leave(ctx context.Context, in *instance, want map[string]Document) error {
	var kept []string
	for u, od := range s.docs {
		if _, ok := want[u]; ok {
			continue
		}
		if od.OnDisk {
			od.kept = true
			kept = append(kept, u)
			continue
		}
		if err := s.close(ctx, in, u); err != nil {
			return err
		}
	}
	if len(kept) <= maxKept {
		return nil
	}
	slices.SortFunc(kept, func(a, b string) int { return cmp.Or(s.docs[a].used-s.docs[b].used, strings.Compare(a, b)) })
	for _, u := range kept[:len(kept)-maxKept] {
		if err := s.close(ctx, in, u); err != nil {
			return err
		}
	}
	return nil
}

// close closes the open document u.
func (s *Server) close(ctx context.Context, in *instance, u string) error {
	delete(s.docs, u)
	return s.notify(ctx, in, "textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: u}})
}

// dropChanged takes the documents at paths (changed on disk) off the
// disk's content: one left out of the next request is closed, so the
// server reads the disk again. Called with the semaphore held.
func (s *Server) dropChanged(paths map[string]bool) {
	for p := range paths {
		if od := s.docs[URI(p)]; od != nil {
			od.OnDisk = false
		}
	}
}

// versions returns the version of every document of the request (the
// open documents but those kept), by URI, and the paths of the kept ones.
func (s *Server) versions() (map[string]int, []string) {
	out := make(map[string]int, len(s.docs))
	var kept []string
	for u, d := range s.docs {
		if d.kept {
			kept = append(kept, Path(u))
			continue
		}
		out[u] = d.version
	}
	slices.Sort(kept)
	return out, kept
}

// notify sends a notification to in, telling s.trace first. It is sent
// even when ctx has ended: the stream looks at ctx only before writing,
// and a notification left unsent would leave the server other than s.docs
// says (an error would also be taken for a broken connection, and the
// process killed: under a turn shared by several callers, one giving up
// would crash the others' answers). The caller stops at its next request.
func (s *Server) notify(ctx context.Context, in *instance, method string, params any) error {
	s.mu.Lock()
	trace := s.trace
	s.mu.Unlock()
	if trace != nil {
		trace(method, params)
	}
	return in.notifyServer(context.WithoutCancel(ctx), method, params)
}
