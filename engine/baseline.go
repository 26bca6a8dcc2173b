package engine

// This file defines the baseline of a lint or check answer over changed
// content: the content before the change, and its findings, which tell
// the findings the change introduced from those that were there already
// (docs/verdicts.md, "Introduced or pre-existing").
//
// The baseline of a file is
//   - for an unwritten workspace change (a changed, added, deleted or
//     moved file), what the disk holds;
//   - for a file the session changed on disk itself (edit_file,
//     write_file, a plan's write), what it held before the session's
//     first change to it ([Bases]: edit_file's undo base);
//   - with a [BaseSource] (devbroker check --since REV), the source's
//     content (a revision's);
//   - otherwise its content now: a file nobody changed is its own
//     baseline, and findings there count too (the caller an edit broke
//     is introduced).
//
// The baseline's findings come from the same drivers, asked about the
// baseline content as a request of its own (its changed files are shown
// to them as overlays, as any session's unwritten changes are), before
// the answer itself, so that a language server is left holding the
// current content. They are kept per content ([baseCache]): a later
// answer over the same baseline asks the drivers once.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// Base is what a file held at the baseline.
type Base struct {
	// Content is the file's content; nil when it did not exist.
	Content []byte
	// Exists is false when the file did not exist at the baseline.
	Exists bool
	// From is the path the file had at the baseline when it moved since;
	// "" for the same path.
	From string
}

// BaseSource is a baseline other than the session's own: the content of
// a version control revision (devbroker check --since REV).
type BaseSource interface {
	// Name names the baseline in answers ("HEAD~1").
	Name() string
	// Bases returns the baseline content of every file whose content
	// there differs from the disk's, among files (workspace paths) and
	// every file the baseline holds under the root: a file it lacks
	// (added since) with Exists false, one the disk lacks (deleted since)
	// with its content.
	Bases(ctx context.Context, files []string) (map[string]Base, error)
}

// Bases records, per file, what it held before the session first
// changed it on disk (edit_file, write_file, a plan's write): the first
// record of a path stays. It is safe for concurrent use.
type Bases struct {
	mu sync.Mutex
	m  map[string]Base
}

// RecordBase records that the session is about to change rel on disk,
// which holds before (nil: no file), unless an earlier change recorded
// what it held first. edit_file calls it.
func (b *Bases) RecordBase(rel string, before []byte) {
	b.record(rel, Base{Content: before, Exists: before != nil})
}

func (b *Bases) record(p string, base Base) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]Base{}
	}
	if _, ok := b.m[p]; !ok {
		b.m[p] = base
	}
}

func (b *Bases) snapshot() map[string]Base {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.m)
}

// BaselineCounts counts the findings of the answers compared with their
// baseline.
type BaselineCounts struct {
	// Introduced counts the findings the baseline did not have.
	Introduced int
	// PreExisting counts those it had.
	PreExisting int
	// Since names the baseline when it is not the session's own (a
	// revision); "" for the content before the session's changes.
	Since string
}

// baseline is a lint or check request's baseline.
type baseline struct {
	// req is the request over the baseline content.
	req Request
	// content holds the baseline content of each path whose baseline is
	// not its current content (nil: no file at the baseline).
	content map[string]*text.Doc
	// origin maps a current path to its path at the baseline, where the
	// file moved.
	origin map[string]string
	// same: the baseline is the current content (a revision nothing
	// changed since); every finding is pre-existing.
	same bool
}

// baselineOf is req's baseline, or nil when nothing differs from it and
// no [BaseSource] asks for one: the answer is not over changed content.
func (e *Engine) baselineOf(ctx context.Context, req Request) (*baseline, error) {
	var overrides map[string]Base
	if e.since != nil {
		files := slices.Concat(slices.Collect(maps.Keys(req.Files)), req.Deleted)
		bs, err := e.since.Bases(ctx, files)
		if err != nil {
			return nil, err
		}
		overrides = maps.Clone(bs)
	} else {
		overrides = e.sessionBases.snapshot()
	}
	if overrides == nil {
		overrides = map[string]Base{}
	}
	changed := map[string]bool{}
	for _, p := range req.Changed {
		changed[p] = true
	}
	// disk is what p holds on disk: a held file with no unwritten change
	// is what the workspace just read.
	read := map[string]*text.Doc{}
	disk := func(p string) (*text.Doc, bool) {
		if d := req.Files[p]; d != nil && !changed[p] {
			return d, true
		}
		d, ok := read[p]
		if !ok {
			d, _ = e.diskDoc(p)
			read[p] = d
		}
		return d, d != nil
	}
	for _, p := range slices.Concat(req.Changed, req.Deleted) {
		if _, ok := overrides[p]; ok {
			continue
		}
		d, ok := disk(p)
		if ok {
			overrides[p] = Base{Content: []byte(d.String()), Exists: true}
		} else {
			overrides[p] = Base{}
		}
	}
	b := &baseline{content: map[string]*text.Doc{}, origin: map[string]string{}}
	for p := range req.Files {
		if o, ok := e.ws.Origin(p); ok && o != "" && o != p {
			b.origin[p] = o
		}
	}
	deleted := map[string]bool{}
	for _, p := range req.Deleted {
		deleted[p] = true
	}
	// live is what the drivers are shown of p now: the request's file,
	// else the disk's, but for a file the workspace deleted.
	live := func(p string) *text.Doc {
		if d := req.Files[p]; d != nil {
			return d
		}
		if deleted[p] {
			return nil
		}
		d, _ := disk(p)
		return d
	}
	files := maps.Clone(req.Files)
	var bChanged, bDeleted []string
	for _, p := range slices.Sorted(maps.Keys(overrides)) {
		base := overrides[p]
		if base.From != "" && req.Files[p] != nil {
			if _, moved := b.origin[p]; !moved {
				b.origin[p] = base.From
			}
		}
		var doc *text.Doc
		if base.Exists {
			// Not text at the baseline: no driver read it as a source,
			// so it had no findings there, as if it did not exist (it is
			// not its own baseline).
			if d, err := text.Parse(base.Content); err == nil {
				doc = d
			}
		}
		if now := live(p); doc == nil && now == nil || doc != nil && now != nil && doc.Equal(now) {
			continue
		}
		b.content[p] = doc
		onDisk, exists := disk(p)
		switch {
		case doc != nil:
			files[p] = doc
			if !exists || !onDisk.Equal(doc) {
				bChanged = append(bChanged, p)
			}
		default:
			delete(files, p)
			if exists {
				bDeleted = append(bDeleted, p)
			}
		}
	}
	if len(b.content) == 0 {
		if e.since == nil {
			return nil, nil
		}
		b.same = true
		return b, nil
	}
	targets := req.Paths
	if targets == nil {
		targets = slices.Collect(maps.Keys(req.Files))
	}
	var paths []string
	for _, t := range targets {
		if o := b.origin[t]; o != "" {
			t = o
		}
		if files[t] != nil {
			paths = append(paths, t)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	var swept []string
	for _, p := range req.Swept {
		if files[p] != nil {
			swept = append(swept, p)
		}
	}
	b.req = Request{
		Kind: req.Kind, Root: req.Root, Files: files, Paths: paths,
		Changed: bChanged, Deleted: bDeleted, Swept: swept, Uncapped: true,
	}
	if req.Kind == Test {
		// The baseline runs the tests the change affects, not only
		// those of the files it differs from the disk in.
		b.req.Affecting = slices.Sorted(slices.Values(slices.Concat(req.Changed, req.Deleted, req.Affecting)))
		b.req.Affecting = slices.Compact(b.req.Affecting)
	}
	if b.req.Paths == nil {
		b.req.Paths = []string{} // nothing of it is asked about
	}
	return b, nil
}

// diskDoc reads p from disk, within the workspace's per-file limit; ok is
// false when there is no such text file.
func (e *Engine) diskDoc(p string) (*text.Doc, bool) {
	data, _, err := e.fs.ReadFileMax(p, e.ws.Limits().MaxFileBytes)
	if err != nil {
		return nil, false
	}
	d, err := text.Parse(data)
	if err != nil {
		return nil, false
	}
	return d, true
}

// baseFinding is a finding of the baseline, with the text of its line
// there.
type baseFinding struct {
	Diagnostic
	text string
}

// comparison is what a lint or check answer is compared with.
type comparison struct {
	base *baseline
	// found are the baseline's findings.
	found []baseFinding
	// failed says why the baseline's findings could not be had: then
	// every finding counts as introduced.
	failed string
	// tests: the answer is a test answer, whose failed tests match the
	// baseline's by name (see [comparison.mark]).
	tests bool
}

// compareWith asks for req's baseline findings (or finds them in the
// cache), or returns nil when the answer is not over changed content. It
// fails only when ctx ends.
func (e *Engine) compareWith(ctx context.Context, req Request) (*comparison, error) {
	c, err := e.comparisonOf(ctx, req)
	if c == nil || err != nil {
		return c, err
	}
	return c, e.baseFindings(ctx, c)
}

// comparisonOf is req's comparison before its baseline's findings are
// asked for ([Engine.baseFindings]), or nil when the answer is not over
// changed content. It fails only when ctx ends.
func (e *Engine) comparisonOf(ctx context.Context, req Request) (*comparison, error) {
	b, err := e.baselineOf(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &comparison{failed: "its content could not be read: " + err.Error()}, nil
	}
	if b == nil {
		return nil, nil
	}
	return &comparison{base: b, tests: req.Kind == Test}, nil
}

// baseFindings asks for c's baseline findings (or finds them in the
// cache). A test answer's baseline is never cached: whether a test passes
// depends on files beyond those its findings name. It fails only when
// ctx ends.
func (e *Engine) baseFindings(ctx context.Context, c *comparison) error {
	b := c.base
	if c.failed != "" || b.same || len(b.req.Paths) == 0 {
		return nil // every finding introduced, every one pre-existing, or none of the files there
	}
	var key [32]byte
	if !c.tests {
		key = e.bcache.key(b.req)
		if found, ok := e.bcache.get(key, e.fs); ok {
			c.found = found
			return nil
		}
	}
	resp, err := e.caps.Run(ctx, b.req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.failed = "the drivers failed on it: " + err.Error()
		return nil
	}
	var bad []string
	for _, s := range resp.Drivers {
		if s.Status != StatusOK {
			bad = append(bad, s.Driver+": "+string(s.Status))
		}
	}
	if len(bad) > 0 {
		c.failed = "its answer was incomplete (" + strings.Join(bad, "; ") + ")"
		return nil
	}
	found, stamps := e.findingsOf(b, resp.Diagnostics)
	if !c.tests {
		e.bcache.put(key, found, stamps)
	}
	c.found = found
	return nil
}

// stamp is what a file's metadata said when the cache read it.
type stamp struct {
	size  int64
	mtime time.Time
	ok    bool
}

func stampOf(fsys *rootfs.FS, p string) stamp {
	fi, err := fsys.Stat(p)
	if err != nil {
		return stamp{}
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime(), ok: true}
}

// findingsOf pairs each baseline finding with the text of its line at the
// baseline, and stamps the files read from disk for it.
func (e *Engine) findingsOf(b *baseline, ds []Diagnostic) ([]baseFinding, map[string]stamp) {
	stamps := map[string]stamp{}
	read := map[string]*text.Doc{}
	doc := func(p string) *text.Doc {
		if d := b.req.Files[p]; d != nil {
			return d
		}
		if d, ok := read[p]; ok {
			return d
		}
		var d *text.Doc
		if filepath.IsAbs(p) {
			read[p] = nil
			return nil
		}
		stamps[p] = stampOf(e.fs, p)
		d, _ = e.diskDoc(p)
		read[p] = d
		return d
	}
	out := make([]baseFinding, len(ds))
	for i, d := range ds {
		out[i] = baseFinding{Diagnostic: d, text: lineText(doc(d.Path), d.Line)}
	}
	return out, stamps
}

// lineText is the 1-based line n of d without its terminator and the
// spaces around it; "" past the file or for a missing file.
func lineText(d *text.Doc, n int) string {
	if d == nil || n < 1 || n > d.Len() {
		return ""
	}
	return strings.TrimSpace(d.Line(n - 1).Text)
}

// baseCacheSize is how many baselines' findings an engine keeps.
const baseCacheSize = 8

// baseCache keeps the findings of the latest baselines by the hash of
// their request: the content of every file it shows and what it asks.
// An entry holds while the files its findings were read from on disk
// (those the request did not show) have the stamps they had.
type baseCache struct {
	mu      sync.Mutex
	entries []baseEntry // most recent last
	// sums memoizes each Doc's content hash: Docs are immutable, so an
	// unchanged file costs nothing after its first hash.
	sums map[weak.Pointer[text.Doc]][32]byte
}

type baseEntry struct {
	key    [32]byte
	found  []baseFinding
	stamps map[string]stamp
}

// key hashes what the drivers' answer about req depends on in the
// workspace: its kind, paths, overlays and every file's content.
func (c *baseCache) key(req Request) [32]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sums == nil || len(c.sums) > 4*len(req.Files)+1024 {
		c.sums = map[weak.Pointer[text.Doc]][32]byte{}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", req.Kind, len(req.Files))
	for _, list := range [][]string{req.Paths, req.Changed, req.Deleted, req.Swept} {
		fmt.Fprintf(h, "%d\x00%s\x00", len(list), strings.Join(list, "\x00"))
	}
	for _, p := range slices.Sorted(maps.Keys(req.Files)) {
		d := req.Files[p]
		wp := weak.Make(d)
		sum, ok := c.sums[wp]
		if !ok {
			sum = sha256.Sum256(d.Bytes())
			c.sums[wp] = sum
		}
		h.Write([]byte(p))
		h.Write([]byte{0})
		h.Write(sum[:])
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

func (c *baseCache) get(key [32]byte, fsys *rootfs.FS) ([]baseFinding, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, en := range c.entries {
		if en.key != key {
			continue
		}
		for p, st := range en.stamps {
			if now := stampOf(fsys, p); now.ok != st.ok || now.size != st.size || !now.mtime.Equal(st.mtime) {
				c.entries = slices.Delete(c.entries, i, i+1)
				return nil, false
			}
		}
		c.entries = append(slices.Delete(c.entries, i, i+1), en)
		return en.found, true
	}
	return nil, false
}

func (c *baseCache) put(key [32]byte, found []baseFinding, stamps map[string]stamp) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(en baseEntry) bool { return en.key == key })
	if len(c.entries) >= baseCacheSize {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, baseEntry{key: key, found: found, stamps: stamps})
}

// clear empties the cache: the drivers changed.
func (c *baseCache) clear() {
	c.mu.Lock()
	c.entries = nil
	c.mu.Unlock()
}
