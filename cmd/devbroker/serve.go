package main

// This file defines `devbroker serve`: the MCP server over stdio or
// streamable HTTP, with shutdown that closes the shared drivers (and so the
// language servers).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
)

const serveUsage = `usage: devbroker serve --mcp [--root DIR] [--tools default|lean|full] [--http ADDR [--token-file FILE] [--allow-origin ORIGIN]... [--max-sessions N]] [--idle DURATION] [--grace DURATION] [--log-level LEVEL]
       devbroker serve --stdio [--root DIR] [--grace DURATION] [--log-level LEVEL]

--mcp serves the MCP tools to agents over stdio (the default) or streamable
HTTP (--http), for the root DIR (default: the current directory, where the
client starts the server). --tools chooses the tools: default (dev_plan,
which runs every step, with edit_file, check, search, discard and probe),
lean (for clients with their own file tools: dev_plan, check, the language
server's tools, discard and probe) or full (one tool per step); without
it, the configuration's [mcp] tools, else default. --stdio serves the editor JSON-RPC protocol (LSP framing) on
stdin/stdout to one editor plugin: see docs/editor-protocol.md.
HTTP binds loopback addresses freely; any other address needs a bearer
token, which is then checked on every request (the scheme in any case).
Give the token in the DEVBROKER_TOKEN environment variable or in a file
(--token-file): --token puts it on the command line, where other users of
the machine can read it (ps, /proc). Without a token, any local user can use
a loopback server. Requests from a browser page are refused (403) unless
its origin is a loopback one or is allowed with --allow-origin. At most
--max-sessions sessions are open at once; more get 503.
On SIGTERM or SIGINT the server stops taking calls, gives the calls in
flight --grace to answer, cancels the rest (they answer with a timeout
status), and exits.
A project's .devbroker.toml applies, and drivers that run the repository's
code run, only in a root you trusted (devbroker trust DIR); --trust trusts
it, as it is at start-up, for this server only. A session's edit of the file
is untrusted until you trust it.
`

// cmdServe runs the MCP server until its client disconnects (stdio) or it
// is interrupted.
func cmdServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, serveUsage); fl.PrintDefaults() }
	useMCP := fl.Bool("mcp", false, "serve the MCP tools")
	useEditor := fl.Bool("stdio", false, "serve the editor JSON-RPC protocol on stdin/stdout")
	root := fl.String("root", ".", "the workspace root directory")
	addr := fl.String("http", "", "serve streamable HTTP on this address (host:port) instead of stdio")
	token := fl.String("token", "", "bearer token required on every HTTP request (visible to other users: prefer $DEVBROKER_TOKEN or --token-file)")
	hf := httpFlags(fl)
	grace := fl.Duration("grace", brokermcp.DefaultShutdownGrace, "on SIGTERM or SIGINT, how long calls in flight get to answer before they are cancelled")
	idle := fl.Duration("idle", 30*time.Minute, "HTTP: end a session idle this long, discarding its unwritten changes (0: never)")
	level := fl.String("log-level", "info", "log level: debug, info, warn or error")
	toolSet := fl.String("tools", "", "the MCP tools offered: default (dev_plan, edit_file and the commonest steps), lean (for clients with their own file tools) or full (one tool per step); default: the configuration's [mcp] tools, else default")
	trusted := trustFlag(fl)
	if err := fl.Parse(args); err != nil {
		return exitBadUsage
	}
	if fl.NArg() != 0 || *useMCP == *useEditor {
		fmt.Fprintln(stderr, "devbroker serve: give exactly one of --mcp (agents) or --stdio (editor plugins)")
		fl.Usage()
		return exitBadUsage
	}
	if *useEditor && *addr != "" {
		fmt.Fprintln(stderr, "devbroker serve: --http goes with --mcp; the editor protocol runs on stdin/stdout")
		return exitBadUsage
	}
	if *useEditor && *toolSet != "" {
		fmt.Fprintln(stderr, "devbroker serve: --tools goes with --mcp; the editor protocol has no tools")
		return exitBadUsage
	}
	var lv slog.Level
	var err error
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(stderr, "devbroker serve: --log-level: %v\n", err)
		return exitBadUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	if hf.token, err = resolveToken(*token, hf.tokenFile, *addr, stderr); err != nil {
		fmt.Fprintf(stderr, "devbroker serve: %v\n", err)
		return exitBadUsage
	}
	var profile brokermcp.Profile
	if *useMCP {
		if profile, err = toolProfile(*toolSet, *root, trusted(*root)); err != nil {
			fmt.Fprintf(stderr, "devbroker serve: %v\n", err)
			return exitBadUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	opts := broker.Options{Load: hookLoader(loaderWith(trusted(*root))), Limits: engineOptions().Limits, Logger: log}
	if *addr != "" {
		opts.IdleTimeout = *idle
	}
	mgr := broker.NewManager(opts)
	defer func() {
		if err := mgr.Close(); err != nil {
			log.Error("closing drivers", "err", err)
		}
	}()
	if *useEditor {
		rwc := stdioConn{Reader: stdin, Writer: stdout}
		if err := (editor.Options{Logger: log, ShutdownGrace: *grace}).Serve(ctx, rwc, mgr, *root); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			log.Error("editor session ended", "err", err)
			return exitNotOK
		}
		return exitOK
	}
	srv, err := brokermcp.New(ctx, mgr, *root, brokermcp.Options{Logger: log, ShutdownGrace: *grace, Tools: profile})
	if err != nil {
		fmt.Fprintf(stderr, "devbroker serve: %v\n", err)
		return exitBadUsage
	}
	defer srv.Close()
	log.Info("serving", "root", srv.Root().Dir(), "tools", srv.Tools())

	if *addr == "" {
		t := &brokermcp.StdioTransport{In: stdin, Out: stdout, OnRefused: func(reason string) {
			log.Warn("refused a malformed message", "reason", reason)
		}}
		if err := srv.ServeStdio(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			log.Error("stdio session ended", "err", err)
			return exitNotOK
		}
		return exitOK
	}
	hf.idle = *idle
	return serveHTTP(ctx, srv, *addr, hf, log, stderr)
}

// toolProfile is the MCP tool profile a server on root offers: the
// --tools flag's, else the configuration's [mcp] tools (the project's
// once the root is trusted), else the default.
func toolProfile(flag, root string, opts drivers.Options) (brokermcp.Profile, error) {
	if flag != "" {
		p, err := brokermcp.ParseProfile(flag)
		if err != nil {
			return "", fmt.Errorf("--tools: %w", err)
		}
		return p, nil
	}
	cfg, err := drivers.MCP(root, opts)
	if err != nil {
		return "", err
	}
	return brokermcp.ParseProfile(cfg.Tools)
}

// loaderWith is the broker's loader: the root's configuration, built, its
// project file applied only when trusted as opts decide. Nothing is probed
// before it returns: the broker probes the languages present under the
// root in the background, and a request first needing another language
// probes it; a language server starts beside its probe. Every load asks
// again, so a session's edit of .devbroker.toml is untrusted until the
// user trusts it. A re-probe's set is built beside the previous one and
// takes over its running language servers.
func loaderWith(opts drivers.Options) broker.Loader {
	return func(ctx context.Context, root string, prev broker.Drivers) (broker.Drivers, error) {
		opts := loadOptions(opts, drivers.ProbeLazy)
		if prev != nil {
			opts = probeOptions(opts, drivers.ProbeLazy) // a re-probe probes again
		}
		opts.Previous, _ = prev.(*capabilities.Set)
		set, _, err := drivers.LoadWith(ctx, root, opts)
		if err != nil {
			return nil, err
		}
		// The root is known: its language servers start beside their
		// probes (the broker probes the languages present), so the
		// first check meets a loaded server.
		set.StartEarly()
		return set, nil
	}
}

// stdioConn is standard input and output as one connection.
type stdioConn struct {
	io.Reader
	io.Writer
}

// Close closes nothing: the process's streams end with the process.
func (stdioConn) Close() error { return nil }
