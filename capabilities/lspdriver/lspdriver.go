// Package lspdriver is the "lsp" driver type: gopls, or any configured
// language server, answering check, lint (with fixes) and format for the
// workspace content through the lsp package.
//
// The principal types are [Driver] and its [Type]. A run turns the
// workspace into the documents the server must see (see docs.go), asks
// the shared server for them (lsp.Server), and converts what it answers
// to engine values on workspace paths, positions from UTF-16 to
// characters on the content the server was given (convert.go).
//
// Servers are shared: the Drivers of one set take their servers from the
// set's lsp.Supervisor (capabilities.Shared), so all sessions on a root use
// one gopls, and a re-probe's new set takes over the running servers whose
// command and settings did not change ([Driver.Inherit]). A Driver built
// alone owns its own supervisor. Close stops what no one else holds.
// [Driver.Start] starts the root's server before the first request,
// beside the probe (capabilities.Starter).
package lspdriver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp"
)

// Type is the "lsp" driver type.
var Type = capabilities.Type{
	Name: "lsp",
	Doc:  "a language server (gopls, or any configured one): check, lint with quick fixes, and format, on the workspace content sent with didOpen/didChange.",
	New:  New,
}

// IdleTimeout stops a server that has not been used for this long.
const IdleTimeout = lsp.DefaultIdleTimeout

// sharedKey names the set's supervisor in capabilities.Shared.
const sharedKey = "lsp"

// testHookConfig, set by tests (export_test.go), changes the
// configuration of every server started from then on; nil otherwise.
var testHookConfig func(*lsp.Config)

// Driver is one configured language server. It is safe for concurrent
// use.
type Driver struct {
	name   string
	root   string // the configuration's root, for the probe
	cfg    configs.Driver
	langID string
	// fileTypes are the file types of the languages whose lists name
	// the driver, by language (capabilities.Env.FileTypes).
	fileTypes map[string][]string
	timeout   time.Duration
	log       *slog.Logger
	shared    *capabilities.Shared // nil: own holds the driver's supervisor
	calls     capabilities.Calls

	mu       sync.Mutex
	own      *lsp.Supervisor
	bin      string // resolved Command[0]
	how      string
	servers  map[string]held // by root
	closed   bool
	idle     time.Duration
	resolved bool
	findErr  error
	// probeFailed: the probe found the server not working; an early
	// start no longer holds a server (see Start).
	probeFailed bool
	// blind holds, by root, the go command's answer about the sources
	// gopls does not compile (blind.go).
	blind map[string]blindAnswer

	// files keeps the disk's files that navigation answers named, by
	// stamp (filecache.go).
	files fileCache
}

type held struct {
	pool    *lsp.Pool
	release func()
}

// New builds an lsp driver. Of the configuration it uses Command (the
// server's argv; "gopls" is found by lsp.FindServer's rule), Settings,
// LanguageID (default: the language's name), Env, Timeout, Doc, Smoke,
// VersionCommand and Install. It starts nothing.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	if cfg == nil || len(cfg.Command) == 0 {
		return nil, fmt.Errorf("a driver of type lsp needs command, the language server's argv")
	}
	d := &Driver{name: name, root: env.Root, cfg: *cfg, langID: cfg.LanguageID, fileTypes: env.FileTypes, timeout: configs.DefaultTimeout, servers: map[string]held{}, idle: IdleTimeout, blind: map[string]blindAnswer{},
		log: slog.New(slog.DiscardHandler), shared: env.Shared}
	if d.langID == "" {
		d.langID = env.Language
	}
	if cfg.Timeout.Duration > 0 {
		d.timeout = cfg.Timeout.Duration
	}
	if cfg.IdleTimeout.Duration > 0 {
		d.idle = cfg.IdleTimeout.Duration
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	doc := d.cfg.Doc
	if doc == "" {
		doc = Type.Doc
	}
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: append([]engine.Kind{engine.Check, engine.Lint, engine.Format}, engine.LanguageKinds()...), Doc: doc}
}

// isGopls reports whether the command is gopls, found by FindServer's rule.
func (d *Driver) isGopls() bool { return filepath.Base(d.cfg.Command[0]) == "gopls" }

// installHint is how to install the server, said once where it is
// missing: the configured hint, else, for gopls, lsp.GoplsInstall.
func (d *Driver) installHint() string {
	if d.cfg.Install == "" && d.isGopls() {
		return lsp.GoplsInstall
	}
	return d.cfg.Install
}

// resolve finds the server binary once.
func (d *Driver) resolve(ctx context.Context, root string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.resolved {
		return d.bin, d.findErr
	}
	bin, how, err := lsp.FindServer(ctx, d.cfg.Command[0], root, d.cfg.ProjectTools)
	if hint := d.installHint(); err != nil && hint != "" {
		err = fmt.Errorf("%w; install: %s", err, hint)
	}
	if ctx.Err() != nil {
		return "", err // do not remember a lookup cut short
	}
	d.bin, d.how, d.findErr, d.resolved = bin, how, err, true
	return bin, err
}

// supervisor returns the supervisor the driver's servers come from: its
// set's, or its own.
func (d *Driver) supervisor() (*lsp.Supervisor, error) {
	if d.shared == nil {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.own == nil {
			d.own = lsp.NewSupervisor()
		}
		return d.own, nil
	}
	c, err := d.shared.Get(sharedKey, func() io.Closer { return lsp.NewSupervisor() })
	if err != nil {
		return nil, err
	}
	return c.(*lsp.Supervisor), nil
}

// pool returns the shared servers for root.
func (d *Driver) pool(ctx context.Context, root string) (*lsp.Pool, error) {
	bin, err := d.resolve(ctx, root)
	if err != nil {
		return nil, err
	}
	return d.hold(bin, root)
}

// poolAt returns the shared servers for the directory dir (a workspace
// path) of root: the project's own copy of the server in a trusted root
// (projectTool), else the one found for the root.
func (d *Driver) poolAt(ctx context.Context, root, dir string) (*lsp.Pool, error) {
	return d.poolAtIf(ctx, root, dir, false)
}

// poolAtEarly is poolAt for an early start: refused after a failed
// probe.
func (d *Driver) poolAtEarly(ctx context.Context, root, dir string) (*lsp.Pool, error) {
	return d.poolAtIf(ctx, root, dir, true)
}

func (d *Driver) poolAtIf(ctx context.Context, root, dir string, early bool) (*lsp.Pool, error) {
	if dir == "." && !early {
		return d.pool(ctx, root)
	}
	abs := filepath.Join(root, filepath.FromSlash(dir))
	if bin := d.projectTool(root, dir); bin != "" {
		return d.holdIf(bin, abs, early)
	}
	bin, err := d.resolve(ctx, root)
	if err != nil {
		return nil, err
	}
	return d.holdIf(bin, abs, early)
}

// hold returns the servers the driver holds for root, acquiring them
// first.
func (d *Driver) hold(bin, root string) (*lsp.Pool, error) {
	return d.holdIf(bin, root, false)
}

// holdIf is hold; early refuses after a failed probe.
func (d *Driver) holdIf(bin, root string, early bool) (*lsp.Pool, error) {
	sup, err := d.supervisor()
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, lsp.ErrClosed
	}
	if early && d.probeFailed {
		return nil, errProbeFailed
	}
	if h, ok := d.servers[root]; ok {
		return h.pool, nil
	}
	pool, release, err := sup.AcquirePool(d.config(bin, root), d.lanes())
	if err != nil {
		return nil, err
	}
	d.servers[root] = held{pool, release}
	return pool, nil
}

// Server returns the first server the driver holds for root, or nil: for
// tests and benchmarks that tell servers apart (lsp.Server.PID, Starts).
func (d *Driver) Server(root string) *lsp.Server {
	d.mu.Lock()
	defer d.mu.Unlock()
	if h, ok := d.servers[root]; ok {
		return h.pool.Primary()
	}
	return nil
}

// Servers returns every server the driver holds for root (the lanes of
// its pool, the first first), or nil.
func (d *Driver) Servers(root string) []*lsp.Server {
	d.mu.Lock()
	defer d.mu.Unlock()
	if h, ok := d.servers[root]; ok {
		return h.pool.Servers()
	}
	return nil
}

// Inherit takes over the servers that old, the driver this one replaces
// on a re-probe, holds, when old is an lsp driver of the same
// configuration on the same shared supervisor: they keep running across
// the swap, and old's Close no longer stops them. Otherwise it does
// nothing, and old's servers stop with it.
func (d *Driver) Inherit(old capabilities.Driver) {
	o, ok := old.(*Driver)
	if !ok || o == d || d.shared == nil || o.shared != d.shared || o.root != d.root || o.langID != d.langID || !reflect.DeepEqual(o.cfg, d.cfg) {
		return
	}
	o.mu.Lock()
	bin, how, findErr, resolved := o.bin, o.how, o.findErr, o.resolved
	roots := make([]string, 0, len(o.servers))
	for r := range o.servers {
		roots = append(roots, r)
	}
	o.mu.Unlock()
	if !resolved || findErr != nil {
		return
	}
	d.mu.Lock()
	d.bin, d.how, d.findErr, d.resolved = bin, how, nil, true
	d.mu.Unlock()
	for _, r := range roots {
		_, _ = d.hold(bin, r) // an error (shutting down) leaves it to Run
	}
}

func (d *Driver) config(bin, root string) lsp.Config {
	cfg := lsp.Config{
		Name:        d.name,
		Command:     append([]string{bin}, d.serverArgs()...),
		Root:        root,
		Env:         d.cfg.Env,
		Settings:    d.cfg.Settings,
		IdleTimeout: d.idle,
		// A start outlives the request that began it (lsp.ErrStarting),
		// up to this bound: never less than a request may wait.
		StartTimeout: max(lsp.DefaultStartTimeout, d.timeout),
		Log:          d.log,
	}
	// What the answers depend on outside the root, by language; gopls is
	// also told how to reload (see lsp.GoplsInputs).
	switch {
	case d.isGopls():
		cfg.Inputs, cfg.Settings = lsp.GoplsInputs(d.cfg.Settings)
	case d.langID == "go":
		cfg.Inputs = lsp.Inputs{Go: true}
	}
	if testHookConfig != nil {
		testHookConfig(&cfg)
	}
	return cfg
}

// Close waits for the running calls, then lets go of the driver's
// servers; each stops when no other driver holds it (a driver built alone
// stops its own). It is idempotent.
func (d *Driver) Close() error {
	return d.calls.Close(func() error {
		d.mu.Lock()
		servers, own := d.servers, d.own
		d.servers = map[string]held{}
		d.closed = true
		d.mu.Unlock()
		for _, h := range servers {
			h.release()
		}
		if own != nil {
			return own.Close()
		}
		return nil
	})
}

// DiskChanged tells the language servers of the driver's supervisor
// whose roots hold paths that devbroker changed them on disk (a server
// does not re-read a file it has not open until it is told).
func (d *Driver) DiskChanged(paths []string) {
	if sup, err := d.supervisor(); err == nil {
		sup.FilesChanged(paths)
	}
}

var (
	_ engine.DiskObserver  = (*Driver)(nil)
	_ capabilities.Driver  = (*Driver)(nil)
	_ capabilities.Heir    = (*Driver)(nil)
	_ capabilities.Starter = (*Driver)(nil)
)

// GoplsLanes is the most gopls processes a root's pool runs at once
// (lsp.Pool) when the driver's configuration sets no lanes: half the
// cores the process may use (GOMAXPROCS, which follows a container's CPU
// quota), at least 1 and at most 4. Sessions of one root with
// different unwritten content asking at the same time are answered side
// by side, up to this many, instead of one after the other; each lane is
// a whole gopls with its own memory, and lanes share the machine's cores:
// on 2 cores, 10 sessions of bench/peerbench got the same throughput from
// four lanes as from one (0.63× and 0.64× gopls mcp's) with 2.8 times
// the memory (bench/RESULTS.md). A lane is added only
// while every lane is answering, and closed after lsp.DefaultLaneIdle
// without a caller.
var GoplsLanes = min(max(runtime.GOMAXPROCS(0)/2, 1), 4)

// lanes is the size of the driver's pools: the configuration's lanes,
// else [GoplsLanes] for gopls and 1 for other servers.
func (d *Driver) lanes() int {
	switch {
	case d.cfg.Lanes > 0:
		return d.cfg.Lanes
	case d.isGopls():
		return GoplsLanes
	}
	return 1
}
