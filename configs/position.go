package configs

// This file defines the position index: where each key, table header and
// array element of a TOML document is, so that errors found after decoding
// still name a line and column.

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// pos is a 1-based line and column.
type pos struct{ line, col int }

// index maps a field path (as fieldPath writes it) to the position of its
// first appearance: the key of a key/value, the name in a table header, or
// an array element.
type index map[string]pos

// fieldPath writes a TOML key path the way errors show it: dotted, with
// the parts that are not bare keys quoted ("drivers.\"my.tool\".command").
func fieldPath(parts ...string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(keyPart(p))
	}
	return b.String()
}

// keyPart quotes a key part unless it is a bare TOML key.
func keyPart(p string) string {
	if p == "" {
		return `""`
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(p)
		}
	}
	return p
}

// elem is the path of element i of the array at path.
func elem(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// buildIndex records the positions in data, which must be a document that
// decoded without error. It stops quietly at a syntax error.
func buildIndex(data []byte) index {
	idx := index{}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = idx.key(&p, nil, e.Key())
		case unstable.KeyValue:
			idx.keyValue(&p, table, e)
		}
	}
	return idx
}

// key records every prefix of the dotted key after base, each at its own
// part's position, and returns the whole path.
func (idx index) key(p *unstable.Parser, base []string, it unstable.Iterator) []string {
	parts := append([]string(nil), base...)
	for it.Next() {
		n := it.Node()
		parts = append(parts, string(n.Data))
		idx.add(fieldPath(parts...), p, n, pos{})
	}
	return parts
}

// keyValue records a key/value under table, and the value's insides.
func (idx index) keyValue(p *unstable.Parser, table []string, kv *unstable.Node) {
	parts := idx.key(p, table, kv.Key())
	at := idx[fieldPath(parts...)]
	idx.value(p, fieldPath(parts...), parts, kv.Value(), at)
}

// value records the elements of an array and the keys of an inline table;
// at is the position of the value's key, used for nodes without one.
func (idx index) value(p *unstable.Parser, path string, parts []string, v *unstable.Node, at pos) {
	switch v.Kind {
	case unstable.Array:
		i := 0
		for it := v.Children(); it.Next(); {
			n := it.Node()
			if n.Kind == unstable.Comment {
				continue
			}
			ep := elem(path, i)
			idx.add(ep, p, n, at)
			idx.value(p, ep, nil, n, idx[ep])
			i++
		}
	case unstable.InlineTable:
		if parts == nil { // a table inside an array: not in the schema
			return
		}
		for it := v.Children(); it.Next(); {
			if n := it.Node(); n.Kind == unstable.KeyValue {
				idx.keyValue(p, parts, n)
			}
		}
	}
}

// add records path at n's position, or at fallback when n has none; the
// first record of a path wins.
func (idx index) add(path string, p *unstable.Parser, n *unstable.Node, fallback pos) {
	if _, ok := idx[path]; ok {
		return
	}
	if n.Raw.Length == 0 {
		idx[path] = fallback
		return
	}
	s := p.Shape(n.Raw).Start
	idx[path] = pos{s.Line, s.Column}
}

// find returns the position of path, or of its nearest recorded ancestor
// (a missing key is reported at its table's header), or the zero pos.
func (idx index) find(path string) pos {
	for path != "" {
		if at, ok := idx[path]; ok {
			return at
		}
		path = parent(path)
	}
	return pos{}
}

// has reports whether the document wrote path itself.
func (idx index) has(path string) bool {
	_, ok := idx[path]
	return ok
}

// parent strips the last part of a path: an array index or a key part.
func parent(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndexByte(path, '['); i >= 0 {
			return path[:i]
		}
	}
	inQuote := false
	last := -1
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == '.' && !inQuote:
			last = i
		}
	}
	if last < 0 {
		return ""
	}
	return path[:last]
}

// keyAt corrects the key go-toml gives an error at line:col: inside an
// inline table it leaves out the table's own key ("drivers.x.fail" for
// drivers.x.exit_codes.fail). The right path is the indexed one with the
// same last part that starts last on that line at or before col. Without
// one (the document did not parse), key stands.
func (idx index) keyAt(key []string, line, col int) []string {
	if len(key) == 0 {
		return key
	}
	last := key[len(key)-1]
	best, bestCol := "", 0
	for path, at := range idx {
		if at.line != line || at.col > col || at.col < bestCol || strings.HasSuffix(path, "]") {
			continue
		}
		if parts := splitPath(path); parts[len(parts)-1] == last && (at.col > bestCol || path < best) {
			best, bestCol = path, at.col
		}
	}
	if best == "" {
		return key
	}
	return splitPath(best)
}
