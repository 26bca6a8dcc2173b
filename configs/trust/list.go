// Package trust keeps the user's trust list: the roots whose project
// configuration (.devbroker.toml) applies and where the drivers that run
// the repository's code may run, each trusted for one content of that
// file (or for its absence).
//
// The list is a JSON file in the user's state directory
// ($XDG_STATE_HOME/devbroker/trust.json, by default
// ~/.local/state/devbroker/trust.json), keyed by each root's real path
// (symbolic links resolved) and holding the SHA-256 of the file the user
// trusted: an edited file is untrusted again, as with direnv's allow. Only
// the devbroker trust and untrust commands write it; no tool of the MCP or
// editor surfaces does.
//
// This file defines the list and its parser; store.go reads and writes
// it, check.go decides.
package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"time"
)

// Version is the list format's version.
const Version = 1

// List is the trust list.
type List struct {
	Version int `json:"version"`
	// Roots maps a root's real path to what the user trusted there.
	Roots map[string]Entry `json:"roots"`
}

// Entry is one trusted root.
type Entry struct {
	// Hash is the trusted project file's SHA-256, "sha256:<hex>", or
	// [NoFile] when the root had none.
	Hash string `json:"hash"`
	// TrustedAt is when the user trusted it.
	TrustedAt time.Time `json:"trusted_at"`
}

var hashPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// NoFile is the hash the list records for a root trusted while it had no
// project file: creating one later untrusts the root again.
const NoFile = "none"

// ValidHash reports whether h is a hash as [configs.Project] writes it,
// or [NoFile].
func ValidHash(h string) bool { return h == NoFile || hashPattern.MatchString(h) }

// key is the hash as the list records it: [NoFile] for "" (no file).
func key(hash string) string {
	if hash == "" {
		return NoFile
	}
	return hash
}

// Parse decodes a trust list strictly: unknown keys, another version, a
// root that is not an absolute clean path or a malformed hash are errors.
// Empty data is an empty list.
func Parse(data []byte) (*List, error) {
	l := &List{Version: Version, Roots: map[string]Entry{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return l, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(l); err != nil {
		return nil, fmt.Errorf("not valid JSON for a trust list: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not valid JSON for a trust list: data after the object")
	}
	if l.Version != Version {
		return nil, fmt.Errorf("version %d is not %d", l.Version, Version)
	}
	if l.Roots == nil {
		l.Roots = map[string]Entry{}
	}
	for root, e := range l.Roots {
		if !filepath.IsAbs(root) || filepath.Clean(root) != root {
			return nil, fmt.Errorf("root %q is not an absolute, clean path", root)
		}
		if !ValidHash(e.Hash) {
			return nil, fmt.Errorf("root %q: hash %q is not like \"sha256:<64 hex digits>\"", root, e.Hash)
		}
	}
	return l, nil
}

// Marshal encodes the list, indented, roots sorted.
func (l *List) Marshal() []byte {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		panic(err) // a List always encodes
	}
	return append(b, '\n')
}

// Sorted returns the trusted roots, sorted.
func (l *List) Sorted() []string {
	out := make([]string, 0, len(l.Roots))
	for r := range l.Roots {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
