package capabilities

// This file defines [Set]: the drivers of one configuration, their probe
// results, and the languages that route requests to them by file type
// (run.go runs the requests).

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// Type is a driver implementation that a configuration instantiates by
// name ("gofumpt", "staticcheck", "external", "lsp").
type Type struct {
	// Name is the value of a driver's `type` in the configuration.
	Name string
	// Doc says what drivers of this type are.
	Doc string
	// New builds a driver named name from its configuration. It must not
	// start processes or touch the disk: the probe does that (see the
	// lifecycle in the package doc).
	New func(name string, cfg *configs.Driver, env Env) (Driver, error)
}

// Env is what drivers learn about where they run.
type Env struct {
	// Root is the workspace root directory.
	Root string
	// Language names the language the driver serves first (for LSP
	// language ids).
	Language string
	// FileTypes are the file types (configs.Language.FileTypes) of every
	// language whose lists name the driver, by language; nil for a driver
	// built alone.
	FileTypes map[string][]string
	// Shared holds the resources the set's drivers share and a re-probe
	// hands on (language servers); nil for a driver built alone, which
	// then owns its own.
	Shared *Shared
	// Trees is the set's store of staged trees; nil for a driver built
	// alone, which then keeps its own.
	Trees *Trees
}

// language is one configured language, ready for routing.
type language struct {
	name     string
	patterns []string
	byKind   map[engine.Kind][]configs.Slot
	// defaulted are the kinds whose list is the embedded defaults',
	// which no configuration file wrote (configs.Language.Defaulted).
	defaulted map[engine.Kind]bool
	// intel are the language servers that answer the language kinds, in
	// order (see intel.go).
	intel []string
	// failOn is the language's fail_on ("": any).
	failOn string
}

// Set is the drivers of one configuration over one root. It implements
// engine.Capabilities. It is safe for concurrent use.
type Set struct {
	root    string
	langs   []language
	drivers map[string]Driver
	install map[string]string // driver name → its install hint
	urls    map[string]string // driver name → its documentation's address
	// stock are the drivers the embedded defaults define as they are
	// (configs.Driver.Defaulted): nobody named their program.
	stock   map[string]bool
	maxDiag int
	limits  configs.Limits // the configuration's [limits], for the workspace
	shared  *Shared
	trees   *Trees
	calls   Calls

	cfgKey map[string]string // driver name → its configuration's probe cache key
	// projScope is each driver's project_scope, by name, where it has one
	// (see scope.go).
	projScope map[string]string
	// projMarkers are, for a driver with a project_scope that starts a
	// server per project (server_root "project"), its project_markers:
	// each project's own scope narrows its files.
	projMarkers map[string][]string
	langOf      map[string]string // driver name → the language it serves first
	// timeouts are the drivers' timeouts, by name (see ready.go).
	timeouts map[string]time.Duration

	// prober is the probes' state: what they found, which run, the
	// early starts beside them, and the trust the report gives (probe.go,
	// early.go, expect.go).
	prober prober

	// present are the languages with files under the root, found once
	// (see presentLangs).
	presentOnce sync.Once
	present     []string
}

// Limits returns the configuration's [limits] table, whose workspace keys
// (max_files, max_file_bytes, max_total_bytes) bound the sessions on the
// root; zero keys were not set.
func (s *Set) Limits() configs.Limits { return s.limits }

// NewSet builds the drivers that cfg's languages use, from types. A driver
// whose type is unknown, or whose configuration its type refuses, is an
// error naming it. Nothing is probed yet, and nothing is started or
// written: a set that is never probed or run still needs Close, which
// closes its drivers.
func NewSet(cfg *configs.Config, types []Type, root string) (*Set, error) {
	return NewSetAfter(nil, cfg, types, root)
}

// NewSetAfter is [NewSet] for a set that will replace prev (a re-probe):
// it shares prev's resources, and each of its drivers that can take over
// the running resources of prev's driver of the same name and the same
// configuration (an [Heir]) does, so a language server keeps running
// across the swap. prev stays usable until it is closed, which it must be
// (its running requests end first); a nil prev is NewSet.
func NewSetAfter(prev *Set, cfg *configs.Config, types []Type, root string) (*Set, error) {
	s, err := newSet(prev, cfg, types, root)
	if err != nil {
		return nil, err
	}
	if prev != nil {
		s.inherit(prev)
	}
	return s, nil
}

func newSet(prev *Set, cfg *configs.Config, types []Type, root string) (s *Set, err error) {
	byName := map[string]Type{}
	for _, t := range types {
		byName[t.Name] = t
	}
	s = &Set{root: root, drivers: map[string]Driver{}, install: map[string]string{}, urls: map[string]string{}, stock: map[string]bool{}, maxDiag: cfg.Limits.MaxDiagnostics, limits: cfg.Limits, trees: NewTrees(0),
		cfgKey: map[string]string{}, langOf: map[string]string{}, projScope: map[string]string{}, projMarkers: map[string][]string{}, timeouts: map[string]time.Duration{},
		prober: prober{probes: map[string]Probe{}, running: map[string]chan struct{}{}}}
	s.prober.ctx, s.prober.cancel = context.WithCancel(context.Background())
	if prev != nil {
		s.shared = prev.shared.hold()
	} else {
		s.shared = newShared()
	}
	made := s
	defer func() {
		if err != nil {
			made.Close() // the drivers built so far, and the hold on shared
		}
	}()
	if s.maxDiag <= 0 {
		s.maxDiag = configs.DefaultMaxDiagnostics // a configuration not from the loader
	}
	names := make([]string, 0, len(cfg.Languages))
	for n := range cfg.Languages {
		names = append(names, n)
	}
	sort.Strings(names)
	// Each driver is built once, for the first language that names it,
	// and learns the file types of every language that does.
	uses := map[string][]string{}                 // language → its drivers, sorted
	fileTypes := map[string]map[string][]string{} // driver → language → file types
	for _, ln := range names {
		l := cfg.Languages[ln]
		lang := language{name: ln, patterns: l.FileTypes, byKind: map[engine.Kind][]configs.Slot{}, defaulted: map[engine.Kind]bool{}, intel: l.Intelligence, failOn: l.FailOn}
		for _, k := range l.Defaulted {
			lang.defaulted[engine.Kind(k)] = true
		}
		names := slices.Clone(l.Intelligence)
		for kind, entries := range map[engine.Kind][]string{engine.Format: l.Format, engine.Lint: l.Lint, engine.Check: l.Check, engine.Test: l.Test} {
			for _, e := range entries {
				slot, err := configs.ParseSlot(e)
				if err != nil {
					return nil, fmt.Errorf("language %q, %s: %w", ln, kind, err)
				}
				lang.byKind[kind] = append(lang.byKind[kind], slot)
				names = append(names, slot.Drivers()...)
			}
		}
		sort.Strings(names)
		s.langs = append(s.langs, lang)
		uses[ln] = names
		for _, dn := range names {
			if fileTypes[dn] == nil {
				fileTypes[dn] = map[string][]string{}
			}
			fileTypes[dn][ln] = l.FileTypes
		}
	}
	for _, ln := range names {
		for _, dn := range uses[ln] {
			if _, done := s.drivers[dn]; done {
				continue
			}
			dc, ok := cfg.Drivers[dn]
			if !ok {
				return nil, fmt.Errorf("language %q uses driver %q, which is not defined under [drivers]", ln, dn)
			}
			t, ok := byName[dc.Type]
			if !ok {
				return nil, fmt.Errorf("driver %q has type %q, which devbroker does not have (types: %s)", dn, dc.Type, typeNames(types))
			}
			d, err := t.New(dn, dc, Env{Root: root, Language: ln, FileTypes: fileTypes[dn], Shared: s.shared, Trees: s.trees})
			if err != nil {
				return nil, fmt.Errorf("driver %q: %w", dn, err)
			}
			s.drivers[dn] = d
			s.install[dn], s.urls[dn], s.stock[dn] = dc.Install, dc.URL, dc.Defaulted
			s.cfgKey[dn], s.langOf[dn] = configKey(dn, ln, dc), ln
			s.timeouts[dn] = dc.Timeout.Duration
			if dc.ProjectScope != "" {
				s.projScope[dn] = dc.ProjectScope
				if dc.ServerRoot == "project" {
					s.projMarkers[dn] = dc.ProjectMarkers
				}
			}
		}
	}
	return s, nil
}

func typeNames(types []Type) string {
	var out []string
	for _, t := range types {
		out = append(out, t.Name)
	}
	return strings.Join(out, ", ")
}

// Drivers returns the set's drivers by name.
func (s *Set) Drivers() map[string]Driver { return s.drivers }

func supports(d Driver, kind engine.Kind) bool {
	for _, k := range d.Spec().Kinds {
		if k == kind {
			return true
		}
	}
	return false
}

// languageOf returns the first language whose file types match p.
// FailOn is the fail_on of the language of the file at workspace path p
// (engine.FailPolicy): "" for any, and for a file no language covers.
func (s *Set) FailOn(p string) string {
	if l := s.languageOf(p); l != nil {
		return l.failOn
	}
	return ""
}

// MaxDiagnostics is the most diagnostics an answer lists
// (limits.max_diagnostics; engine.DiagnosticLimiter).
func (s *Set) MaxDiagnostics() int { return s.maxDiag }

func (s *Set) languageOf(p string) *language {
	for i := range s.langs {
		for _, pat := range s.langs[i].patterns {
			if configs.MatchFileType(pat, p) {
				return &s.langs[i]
			}
		}
	}
	return nil
}

// ErrSetClosed is the error of a request to a closed set.
var ErrSetClosed = errors.New("the drivers were closed (a re-probe replaced them, or devbroker is shutting down); run the request again")

// Close refuses new requests, waits for the running ones to end, then
// closes every driver (what a later set took over lives on with it), removes the
// staged trees and lets go of the shared resources (the last set holding
// them stops the language servers). It is idempotent and blocking.
func (s *Set) Close() error {
	s.prober.cancel() // the probes end first: nothing waits for them now
	return s.calls.Close(func() error {
		var errs []error
		for _, d := range s.drivers {
			errs = append(errs, d.Close())
		}
		errs = append(errs, s.trees.Close(), s.shared.release())
		return errors.Join(errs...)
	})
}

// Heir is a Driver that can take over the running resources of the driver
// it replaces on a re-probe (a language server's process, a staged
// module). Inherit is called once, after New and before any Run, with the
// previous set's driver of the same name; it keeps what it can use (the
// same type and configuration) and leaves the rest. old keeps working
// until it is closed: what it hands over must outlive its Close.
type Heir interface {
	Driver
	Inherit(old Driver)
}

// inherit lets each heir take over from prev's driver of its name.
func (s *Set) inherit(prev *Set) {
	for name, d := range s.drivers {
		od, ok := prev.drivers[name]
		if h, heir := d.(Heir); ok && heir {
			h.Inherit(od)
		}
	}
}

var _ engine.Capabilities = (*Set)(nil)

// Covers reports whether a configured language covers path's file type.
func (s *Set) Covers(p string) bool { return s.languageOf(p) != nil }
