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
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/capabilities/drivers"
)

const serveUsage = `usage: devbroker serve --mcp [--root DIR] [--http ADDR [--token TOKEN]] [--idle DURATION] [--log-level LEVEL]
       devbroker serve --stdio [--root DIR] [--log-level LEVEL]

--mcp serves the MCP tools to agents over stdio (the default) or streamable
HTTP (--http). --stdio serves the editor JSON-RPC protocol (LSP framing) on
stdin/stdout to one editor plugin: see docs/editor-protocol.md.
HTTP binds loopback addresses freely; any other address needs a bearer
token (--token, or the DEVBROKER_TOKEN environment variable), which is then
checked on every request.
A project's .devbroker.toml runs the commands it names only in a root you
trusted (devbroker trust DIR); --trust trusts it, as it is at start-up, for
this server only. A session's edit of the file is untrusted until you trust it.
`

// shutdownGrace bounds how long serve waits for HTTP requests to finish.
const shutdownGrace = 10 * time.Second

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
	token := fl.String("token", "", "bearer token required on every HTTP request (default $DEVBROKER_TOKEN)")
	idle := fl.Duration("idle", 30*time.Minute, "HTTP: end a session idle this long, discarding its unwritten changes (0: never)")
	level := fl.String("log-level", "info", "log level: debug, info, warn or error")
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
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(stderr, "devbroker serve: --log-level: %v\n", err)
		return exitBadUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: lv}))
	if *token == "" {
		*token = os.Getenv("DEVBROKER_TOKEN")
	}
	if *addr != "" && !brokermcp.IsLoopback(*addr) && *token == "" {
		fmt.Fprintf(stderr, "devbroker serve: --http %s is not a loopback address: binding it needs a bearer token (--token or DEVBROKER_TOKEN)\n", *addr)
		return exitBadUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	opts := broker.Options{Load: loaderWith(trusted(*root)), Limits: engineOptions().Limits, Logger: log}
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
		if err := (editor.Options{Logger: log}).Serve(ctx, rwc, mgr, *root); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			log.Error("editor session ended", "err", err)
			return exitNotOK
		}
		return exitOK
	}
	srv, err := brokermcp.New(ctx, mgr, *root, brokermcp.Options{Logger: log})
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
	return serveHTTP(ctx, srv, *addr, *token, *idle, log, stderr)
}

// serveHTTP serves streamable HTTP on addr until ctx ends.
func serveHTTP(ctx context.Context, srv *brokermcp.Server, addr, token string, idle time.Duration, log *slog.Logger, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker serve: %v\n", err)
		return exitBadUsage
	}
	h := brokermcp.NewHTTPHandler(srv, brokermcp.HTTPOptions{Token: token, SessionTimeout: idle})
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	log.Info("listening", "url", "http://"+ln.Addr().String()+"/mcp", "token", token != "")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("http server", "err", err)
		return exitNotOK
	case <-ctx.Done():
	}
	log.Info("shutting down")
	srv.Close() // ends the sessions, and with them their event streams
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Warn("http shutdown", "err", err)
		hs.Close()
	}
	return exitOK
}

// loaderWith is the broker's loader: the root's configuration, built and
// probed, its project commands trusted as opts decide. Every load asks
// again, so a session's edit of .devbroker.toml is untrusted until the
// user trusts it.
func loaderWith(opts drivers.Options) broker.Loader {
	return func(ctx context.Context, root string) (broker.Drivers, error) {
		set, _, err := drivers.LoadWith(ctx, root, opts)
		if err != nil {
			return nil, err
		}
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
