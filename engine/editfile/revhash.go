package editfile

import (
	"crypto/sha256"
	"encoding"

	"github.com/devbroker/devbroker/engine/text"
)

// revChunk is the distance between the saved SHA-256 states of a content
// the session hashed for its revision (see [revSums]).
const revChunk = 256 << 10

// revSums are the SHA-256 states of a content's prefixes: sums[i] is the
// state after the first (i+1)*revChunk bytes, as the digest's
// MarshalBinary encodes it. A content that shares a prefix with one whose
// sums are known is hashed from the last state inside that prefix, and
// its revision is the same as a full hash's: an edit in the middle of a
// large file rehashes only what follows its last checkpoint.
type revSums [][]byte

// content is what a revision is computed of: a file's bytes, or the text
// an edit would write.
type content interface{ ~string | ~[]byte }

// revisionOf returns text.Revision(now) and now's sums. sums are the sums
// of a content whose first k bytes are now's (0: hash it all).
func revisionOf[T content](sums revSums, k int, now T) (string, revSums) {
	h := sha256.New()
	n := min(len(sums), k/revChunk)
	if n > 0 && h.(encoding.BinaryUnmarshaler).UnmarshalBinary(sums[n-1]) != nil {
		h.Reset()
		n = 0
	}
	out := append(make(revSums, 0, len(now)/revChunk), sums[:n]...)
	var buf [32 << 10]byte
	for off := n * revChunk; off < len(now); {
		end := min(len(now), off-off%revChunk+revChunk)
		for off < end {
			c := copy(buf[:], now[off:end])
			h.Write(buf[:c])
			off += c
		}
		if end%revChunk == 0 && len(out) == end/revChunk-1 {
			if st, err := h.(encoding.BinaryMarshaler).MarshalBinary(); err == nil {
				out = append(out, st)
			}
		}
	}
	return text.RevisionOfHash(h), out
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a []byte, b string) int {
	n := min(len(a), len(b))
	const block = 4 << 10
	i := 0
	for i+block <= n && string(a[i:i+block]) == b[i:i+block] {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}
