package editfile

import (
	"bytes"

	"github.com/devbroker/devbroker/engine/text"
)

// revCacheSize is how many files' last bytes a session keeps to skip
// hashing them again, and revCacheMin the smallest file worth it: below
// it, hashing costs about what the comparison does.
const (
	revCacheSize = 4
	revCacheMin  = 64 << 10
)

// revCache remembers the revision of the bytes this session last read or
// wrote for a few large files, so that loading a file it has seen costs a
// comparison of bytes (memory speed) instead of a SHA-256 of them. It
// holds slices the session already keeps (loaded or written content,
// which nothing modifies). Not safe for concurrent use: Session.mu guards
// it.
type revCache struct {
	entries []revEntry // most recent last
}

type revEntry struct {
	rel  string
	data []byte
	rev  string
}

// revision returns text.Revision(data), from the cache when rel's last
// bytes are data.
func (c *revCache) revision(rel string, data []byte) string {
	for _, e := range c.entries {
		if e.rel == rel && bytes.Equal(e.data, data) {
			return e.rev
		}
	}
	return text.Revision(data)
}

// put records that rel's bytes data have revision rev.
func (c *revCache) put(rel string, data []byte, rev string) {
	for i, e := range c.entries {
		if e.rel == rel {
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
			break
		}
	}
	if len(data) < revCacheMin {
		return
	}
	if len(c.entries) == revCacheSize {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, revEntry{rel: rel, data: data, rev: rev})
}
