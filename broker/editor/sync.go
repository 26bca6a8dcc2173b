package editor

// This file defines buffer sync: textDocument/didOpen, didChange, didClose
// and didSave keep a mirror of each open buffer (its text and version) and
// put the text into the session's workspace, so that plans, format, lint
// and check see what the user sees, saved or not.
//
// The mirror is kept apart from the workspace: incremental changes apply to
// the buffer as the editor has it, even when a plan has changed the
// workspace's copy of the file since (an edit the editor has not applied
// yet). Every sync then replaces the workspace's copy with the buffer: the
// editor is the truth for the files it shows.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/devbroker/devbroker/engine/fault"
)

// buffer is the mirror of one open editor buffer.
type buffer struct {
	uri     protocol.DocumentURI // as the editor spelled it
	path    string               // workspace path
	version int32
	text    string
}

// pathOf maps a file: URI to a workspace path inside the session's root.
func (c *conn) pathOf(u protocol.DocumentURI) (string, error) {
	pu, err := url.Parse(string(u))
	if err != nil || pu.Scheme != "file" {
		return "", fault.New(fault.BadArgument, "%q is not a file: URI; devbroker syncs files under its root only", string(u))
	}
	return c.sess.Rel(filepath.FromSlash(pu.Path))
}

// uriOf is the URI the editor knows path by: its open buffer's, else the
// file under the root as it was given.
func (c *conn) uriOf(path string) protocol.DocumentURI {
	if b, ok := c.bufs[path]; ok {
		return b.uri
	}
	return protocol.DocumentURI(uri.File(filepath.Join(c.root, filepath.FromSlash(path))))
}

// baseOf is what the editor shows for path: its open buffer, else the disk.
func (c *conn) baseOf(path string) (string, *int32, bool, error) {
	if b, ok := c.bufs[path]; ok {
		v := b.version
		return b.text, &v, true, nil
	}
	d, ok, err := c.sess.DiskDoc(path)
	if err != nil || !ok {
		return "", nil, false, err
	}
	return d.Content(), nil, true, nil
}

func (c *conn) didOpen(_ context.Context, params json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeLoose("textDocument/didOpen", params, &p); err != nil {
		return err
	}
	path, err := c.pathOf(p.TextDocument.URI)
	if err != nil {
		return err
	}
	b := &buffer{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: p.TextDocument.Text}
	c.bufs[path] = b
	return c.sess.SetBuffer(path, b.text)
}

func (c *conn) didChange(_ context.Context, params json.RawMessage) error {
	var p DidChangeParams
	if err := decodeLoose("textDocument/didChange", params, &p); err != nil {
		return err
	}
	path, err := c.pathOf(p.TextDocument.URI)
	if err != nil {
		return err
	}
	b, ok := c.bufs[path]
	if !ok {
		return fault.New(fault.BadArgument, "didChange for %s, which is not open: send didOpen with its full text first", p.TextDocument.URI)
	}
	s := b.text
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			s = ch.Text
			continue
		}
		s, err = applyEdits(s, []protocol.TextEdit{{Range: *ch.Range, NewText: ch.Text}}, c.unit)
		if err != nil {
			return fault.New(fault.BadArgument, "didChange for %s (version %d), change %d: %v; the change was not applied: send the full text to resync", p.TextDocument.URI, p.TextDocument.Version, i, err)
		}
	}
	b.text, b.version = s, p.TextDocument.Version
	return c.sess.SetBuffer(path, b.text)
}

func (c *conn) didClose(_ context.Context, params json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeLoose("textDocument/didClose", params, &p); err != nil {
		return err
	}
	path, err := c.pathOf(p.TextDocument.URI)
	if err != nil {
		return err
	}
	b, ok := c.bufs[path]
	if !ok {
		return nil
	}
	delete(c.bufs, path)
	return c.sess.CloseBuffer(path, b.text)
}

func (c *conn) didSave(_ context.Context, params json.RawMessage) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decodeLoose("textDocument/didSave", params, &p); err != nil {
		return err
	}
	path, err := c.pathOf(p.TextDocument.URI)
	if err != nil {
		return err
	}
	if b, ok := c.bufs[path]; ok && p.Text != "" && p.Text != b.text {
		b.text = p.Text
		if err := c.sess.SetBuffer(path, b.text); err != nil {
			return err
		}
	}
	if _, err := c.sess.SavedBuffer(path); err != nil {
		return fmt.Errorf("after saving %s: %w", path, err)
	}
	return nil
}

// dirty reports whether b differs from the file on disk.
func (c *conn) dirty(b *buffer) bool {
	d, ok, err := c.sess.DiskDoc(b.path)
	return err != nil || !ok || d.Content() != b.text
}

// bufferTexts returns the open buffers' text by path.
func (c *conn) bufferTexts() map[string]string {
	out := make(map[string]string, len(c.bufs))
	for p, b := range c.bufs {
		out[p] = b.text
	}
	return out
}
