package editfile

import (
	"github.com/devbroker/devbroker/engine/text"
)

// revCacheSize is how many files' last contents a session keeps to skip
// parsing and hashing them again, and revCacheMin the smallest file worth
// it: below it, hashing costs about what the comparison does.
const (
	revCacheSize = 4
	revCacheMin  = 64 << 10
)

// revCache remembers the Doc, revision and hash states of the content this
// session last read or wrote for a few large files, so that loading a file
// it has seen costs a comparison of bytes (memory speed) instead of a
// check, a copy and a SHA-256 of them, and an edit of it rehashes only
// what follows its first change. Not safe for concurrent use: Session.mu
// guards it.
type revCache struct {
	entries []revEntry // most recent last
}

type revEntry struct {
	rel  string
	doc  *text.Doc // immutable
	rev  string
	sums revSums
}

// lookup returns rel's entry when its content is data.
func (c *revCache) lookup(rel string, data []byte) (revEntry, bool) {
	for _, e := range c.entries {
		if e.rel == rel && sameText(e.doc, data) {
			return e, true
		}
	}
	return revEntry{}, false
}

// get returns rel's entry, whatever its content.
func (c *revCache) get(rel string) (revEntry, bool) {
	for _, e := range c.entries {
		if e.rel == rel {
			return e, true
		}
	}
	return revEntry{}, false
}

// sameText reports whether d is the file data.
func sameText(d *text.Doc, data []byte) bool {
	if d.BOM() {
		if len(data) < len(text.BOM) || string(data[:len(text.BOM)]) != text.BOM {
			return false
		}
		data = data[len(text.BOM):]
	}
	return string(data) == d.Content()
}

// put records e as the latest content of e.rel (e.doc nil: unknown).
func (c *revCache) put(e revEntry) {
	for i, o := range c.entries {
		if o.rel == e.rel {
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
			break
		}
	}
	if e.doc == nil || e.doc.Size() < revCacheMin {
		return
	}
	if len(c.entries) == revCacheSize {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, e)
}

// parse is text.Parse(data) and text.Revision(data), the bytes just read
// of rel, from the session's cache when it last read or wrote these bytes.
func (s *Session) parse(rel string, data []byte) (*text.Doc, string, error) {
	s.mu.Lock()
	e, ok := s.revs.lookup(rel, data)
	if ok {
		s.revs.put(e)
	}
	s.mu.Unlock()
	if ok {
		return e.doc, e.rev, nil
	}
	doc, err := text.Parse(data)
	if err != nil {
		return nil, "", err
	}
	rev, sums := revisionOf(nil, 0, data)
	s.mu.Lock()
	s.revs.put(revEntry{rel: rel, doc: doc, rev: rev, sums: sums})
	s.mu.Unlock()
	return doc, rev, nil
}

// revision is text.Revision(data), the bytes just read of rel, from the
// session's cache when it last read or wrote these bytes.
func (s *Session) revision(rel string, data []byte) string {
	s.mu.Lock()
	e, ok := s.revs.lookup(rel, data)
	s.mu.Unlock()
	if ok {
		return e.rev
	}
	return text.Revision(data)
}

// next returns the revision of out, the file an edit of f would write,
// and its hash states: hashed from the last saved state of f's content
// inside the prefix out shares with it, when the session has them.
func (s *Session) next(f *file, out string) (string, revSums) {
	var sums revSums
	s.mu.Lock()
	if e, ok := s.revs.get(f.rel); ok && e.doc == f.doc {
		sums = e.sums
	}
	s.mu.Unlock()
	k := 0
	if sums != nil {
		k = commonPrefix(f.data, out)
	}
	return revisionOf(sums, k, out)
}
