package lsp

// This file defines document synchronization: bringing the server's open
// documents to exactly the set a request states.

import (
	"context"

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

// sync opens, changes and closes documents so that the server has exactly
// docs open, each at the content given. Changed documents get a new
// version. Called with the semaphore held.
func (s *Server) sync(ctx context.Context, in *instance, docs []Document) error {
	want := make(map[string]Document, len(docs))
	for _, d := range docs {
		want[URI(d.Path)] = d
	}
	for u := range s.docs {
		if _, keep := want[u]; keep {
			continue
		}
		delete(s.docs, u)
		if err := in.notifyServer(ctx, "textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: u}}); err != nil {
			return err
		}
	}
	for _, d := range docs {
		u := URI(d.Path)
		od, open := s.docs[u]
		switch {
		case !open:
			s.version++
			s.docs[u] = &openDoc{Document: d, version: s.version}
			if err := in.notifyServer(ctx, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: u, LanguageID: d.LanguageID, Version: s.version, Text: d.Text}}); err != nil {
				return err
			}
		case od.Text != d.Text:
			s.version++
			od.Text, od.version = d.Text, s.version
			if err := in.notifyServer(ctx, "textDocument/didChange", didChangeParams{
				TextDocument:   versionedTextDocumentIdentifier{URI: u, Version: s.version},
				ContentChanges: []contentChange{{Text: d.Text}},
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// versions returns the version of every open document, by URI.
func (s *Server) versions() map[string]int {
	out := make(map[string]int, len(s.docs))
	for u, d := range s.docs {
		out[u] = d.version
	}
	return out
}
