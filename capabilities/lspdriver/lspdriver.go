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
// Servers are shared: every Driver of one process takes its server from
// one lsp.Supervisor, so all sessions on a root use one gopls.
package lspdriver

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
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

// supervisor holds the process's language servers.
var supervisor = lsp.NewSupervisor()

// noWatch turns the servers' disk watchers off (tests of the explicit
// notifications).
var noWatch bool

// Driver is one configured language server. It is safe for concurrent
// use.
type Driver struct {
	name    string
	root    string // the configuration's root, for the probe
	cfg     configs.Driver
	langID  string
	timeout time.Duration
	log     *slog.Logger

	mu       sync.Mutex
	bin      string // resolved Command[0]
	how      string
	servers  map[string]held // by root
	closed   bool
	idle     time.Duration
	resolved bool
	findErr  error
}

type held struct {
	srv     *lsp.Server
	release func()
}

// New builds an lsp driver. Of the configuration it uses Command (the
// server's argv; "gopls" is found by lsp.FindGopls's rule), Settings,
// LanguageID (default: the language's name), Env, Timeout, Doc, Smoke,
// VersionCommand and Install. It starts nothing.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	if cfg == nil || len(cfg.Command) == 0 {
		return nil, fmt.Errorf("a driver of type lsp needs command, the language server's argv")
	}
	d := &Driver{name: name, root: env.Root, cfg: *cfg, langID: cfg.LanguageID, timeout: configs.DefaultTimeout, servers: map[string]held{}, idle: IdleTimeout,
		log: slog.New(slog.DiscardHandler)}
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
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: []engine.Kind{engine.Check, engine.Lint, engine.Format}, Doc: doc}
}

// CanFix reports that lint can apply the server's quick fixes.
func (d *Driver) CanFix() bool { return true }

// isGopls reports whether the command is gopls, found by FindGopls's rule.
func (d *Driver) isGopls() bool { return filepath.Base(d.cfg.Command[0]) == "gopls" }

// resolve finds the server binary once.
func (d *Driver) resolve(ctx context.Context, root string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.resolved {
		return d.bin, d.findErr
	}
	bin, how, err := lsp.FindGopls(ctx, d.cfg.Command[0], root)
	if err != nil && d.cfg.Install != "" && !d.isGopls() {
		err = fmt.Errorf("%w; install: %s", err, d.cfg.Install)
	}
	if ctx.Err() != nil {
		return "", err // do not remember a lookup cut short
	}
	d.bin, d.how, d.findErr, d.resolved = bin, how, err, true
	return bin, err
}

// server returns the shared server for root.
func (d *Driver) server(ctx context.Context, root string) (*lsp.Server, error) {
	bin, err := d.resolve(ctx, root)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, lsp.ErrClosed
	}
	if h, ok := d.servers[root]; ok {
		return h.srv, nil
	}
	srv, release, err := supervisor.Acquire(d.config(bin, root))
	if err != nil {
		return nil, err
	}
	d.servers[root] = held{srv, release}
	return srv, nil
}

func (d *Driver) config(bin, root string) lsp.Config {
	return lsp.Config{
		Name:        d.name,
		Command:     append([]string{bin}, d.cfg.Command[1:]...),
		Root:        root,
		Env:         d.cfg.Env,
		Settings:    d.cfg.Settings,
		IdleTimeout: d.idle,
		Log:         d.log,
		NoWatch:     noWatch,
	}
}

// Close lets go of the driver's servers; each stops when no other driver
// holds it. It is idempotent.
func (d *Driver) Close() error {
	d.mu.Lock()
	servers := d.servers
	d.servers = map[string]held{}
	d.closed = true
	d.mu.Unlock()
	for _, h := range servers {
		h.release()
	}
	return nil
}

// DiskChanged tells the process's language servers whose roots hold
// paths that devbroker changed them on disk (a server does not re-read a
// file it has not open until it is told).
func (d *Driver) DiskChanged(paths []string) { supervisor.FilesChanged(paths) }

var (
	_ engine.DiskObserver = (*Driver)(nil)
	_ capabilities.Driver = (*Driver)(nil)
	_ capabilities.Fixer  = (*Driver)(nil)
	_ capabilities.Closer = (*Driver)(nil)
)
