package capabilities

// This file defines [ProbeCache]: the probe results of drivers found
// working, kept across runs in a JSON file and keyed by the driver's
// configuration and the identity (path, size, modification time) of every
// file its tool runs from, so that a second start skips the smoke tests
// but a tool that changed is probed again.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// Locator is a Driver whose probe result may be cached: Locate finds the
// files its tool runs from (the binary; for a linked-in tool, devbroker's
// own executable and the commands it runs), without running anything. A
// driver that is not a Locator is probed on every start.
type Locator interface {
	Driver
	Locate(ctx context.Context) ([]string, error)
}

// fileID is one file's identity in a cache key.
type fileID struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime_ns"`
}

// maxCacheEntries bounds the cache file; the oldest entries go first.
const maxCacheEntries = 256

// cacheEntry is one driver configuration's last working probe.
type cacheEntry struct {
	Key     string   `json:"key"`
	Files   []fileID `json:"files"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
	// Offers is the probe's Offers: nil for every kind of the driver.
	Offers []engine.Kind `json:"offers,omitempty"`
	Saved  int64         `json:"saved_unix"`
}

// cacheFile is the cache's file format.
type cacheFile struct {
	Version int          `json:"version"`
	Entries []cacheEntry `json:"entries"`
}

// cacheFormat is the file format's version; a file of another is ignored.
// Version 2 records what a server offers: a version 1 entry would
// advertise every kind.
const cacheFormat = 2

// ProbeCache is a file of probe results. A nil *ProbeCache caches nothing.
// A file that cannot be read or parsed is ignored (and rewritten by the
// next Put). It is safe for concurrent use; processes sharing the file
// merge their entries, the last writer winning on a key.
type ProbeCache struct {
	*cacheStore
	// refresh: Get answers nothing (an explicit probe), Put records.
	refresh bool
}

// cacheStore is the state the views of one cache share.
type cacheStore struct {
	file  string
	mu    sync.Mutex
	byKey map[string]cacheEntry
}

// OpenProbeCache returns the cache kept in file, reading what it holds.
func OpenProbeCache(file string) *ProbeCache {
	c := &ProbeCache{cacheStore: &cacheStore{file: file}}
	c.byKey = c.read()
	return c
}

// Refresh returns a view of c that answers no probe but records what the
// probes find: an explicit probe (devbroker probe, a re-probe) runs every
// smoke test and brings the cache up to date.
func (c *ProbeCache) Refresh() *ProbeCache {
	if c == nil {
		return nil
	}
	return &ProbeCache{cacheStore: c.cacheStore, refresh: true}
}

// UserProbeCache is the cache in the user's cache directory
// (os.UserCacheDir()/devbroker/probe-cache.json), or nil when there is
// none.
func UserProbeCache() *ProbeCache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return OpenProbeCache(filepath.Join(dir, "devbroker", "probe-cache.json"))
}

// parseProbeCache parses a cache file's content. Entries without a key or
// files are dropped.
func parseProbeCache(data []byte) (map[string]cacheEntry, error) {
	var f cacheFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Version != cacheFormat {
		return nil, fmt.Errorf("probe cache format %d, want %d", f.Version, cacheFormat)
	}
	out := make(map[string]cacheEntry, len(f.Entries))
	for _, e := range f.Entries {
		if e.Key != "" && len(e.Files) > 0 {
			out[e.Key] = e
		}
	}
	return out, nil
}

func (c *cacheStore) read() map[string]cacheEntry {
	data, err := os.ReadFile(c.file)
	if err != nil {
		return map[string]cacheEntry{}
	}
	m, err := parseProbeCache(data)
	if err != nil {
		return map[string]cacheEntry{} // corrupt: ignored, rewritten on put
	}
	return m
}

// get returns the cached probe for key when files are exactly the files
// recorded with it (same paths, sizes and modification times).
func (c *ProbeCache) get(key string, files []fileID) (Probe, bool) {
	if c == nil || c.refresh || key == "" || len(files) == 0 {
		return Probe{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || !slices.Equal(e.Files, files) {
		return Probe{}, false
	}
	return Probe{State: Found, Version: e.Version, Path: e.Path, Offers: slices.Clone(e.Offers)}, true
}

// put records a working probe for key and files and writes the cache
// file, merged with what other processes wrote meanwhile, atomically
// (a temporary file renamed over it). A write that fails leaves the file
// as it was; the cache still serves this process.
func (c *ProbeCache) put(key string, files []fileID, p Probe) {
	if c == nil || key == "" || len(files) == 0 || p.State != Found {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := cacheEntry{Key: key, Files: files, Version: p.Version, Path: p.Path, Offers: slices.Clone(p.Offers), Saved: time.Now().Unix()}
	c.byKey[key] = e
	merged := c.read()
	merged[key] = e
	_ = c.write(merged)
}

func (c *cacheStore) write(m map[string]cacheEntry) error {
	f := cacheFile{Version: cacheFormat}
	for _, e := range m {
		f.Entries = append(f.Entries, e)
	}
	sort.Slice(f.Entries, func(i, j int) bool {
		a, b := f.Entries[i], f.Entries[j]
		return a.Saved > b.Saved || (a.Saved == b.Saved && a.Key < b.Key)
	})
	if len(f.Entries) > maxCacheEntries {
		f.Entries = f.Entries[:maxCacheEntries]
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.file), ".probe-cache-*.json")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), c.file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// fingerprint is the identity of the files l's tool runs from, or nil
// (nothing cached) when one cannot be found or read.
func fingerprint(ctx context.Context, l Locator) []fileID {
	paths, err := l.Locate(ctx)
	if err != nil || len(paths) == 0 {
		return nil
	}
	out := make([]fileID, 0, len(paths))
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil
		}
		out = append(out, fileID{Path: p, Size: fi.Size(), MTime: fi.ModTime().UnixNano()})
	}
	return out
}

// configKey is a driver's cache key: its name, its language and a hash of
// its configuration, so that a changed table is probed again.
func configKey(name, lang string, d *configs.Driver) string {
	data, err := json.Marshal(d)
	if err != nil {
		return "" // not cached
	}
	h := sha256.Sum256(data)
	return name + "/" + lang + "/" + hex.EncodeToString(h[:8])
}
