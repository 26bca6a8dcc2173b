package main

// This file defines serve's HTTP side: where the bearer token comes from,
// the HTTP flags, and serving until a signal, then draining.

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
	"strings"
	"time"

	"github.com/devbroker/devbroker/broker"
	brokermcp "github.com/devbroker/devbroker/broker/mcp"
)

// httpOptions are serve's HTTP settings.
type httpOptions struct {
	token       string
	tokenFile   string
	allowOrigin []string
	maxSessions int
	idle        time.Duration
}

// httpFlags declares the HTTP flags on fl.
func httpFlags(fl *flag.FlagSet) *httpOptions {
	o := &httpOptions{}
	fl.StringVar(&o.tokenFile, "token-file", "", "HTTP: read the bearer token from this file (default $DEVBROKER_TOKEN)")
	fl.Func("allow-origin", "HTTP: also accept requests from this browser origin (repeatable; loopback origins are always accepted)", func(v string) error {
		if v == "" {
			return errors.New("an origin looks like https://host[:port]")
		}
		o.allowOrigin = append(o.allowOrigin, v)
		return nil
	})
	fl.IntVar(&o.maxSessions, "max-sessions", brokermcp.DefaultMaxSessions, "HTTP: the most sessions open at once; more get 503")
	return o
}

// envToken is $DEVBROKER_TOKEN, taken out of the environment as the
// process starts, so that no tool devbroker runs (language servers,
// linters, a project's commands) inherits the server's secret.
var envToken = takeEnv("DEVBROKER_TOKEN")

// takeEnv returns the variable's value and removes it from the
// environment.
func takeEnv(name string) string {
	v := os.Getenv(name)
	os.Unsetenv(name)
	return v
}

// resolveToken picks the bearer token: --token (with a warning: argv is
// readable by every user), else --token-file, else $DEVBROKER_TOKEN. A
// non-loopback address needs one.
func resolveToken(flagToken, file, addr string, stderr io.Writer) (string, error) {
	token := flagToken
	switch {
	case flagToken != "" && file != "":
		return "", errors.New("give the token once: --token or --token-file")
	case flagToken != "":
		fmt.Fprintln(stderr, "devbroker serve: warning: --token puts the token on the command line, where other users of this machine can read it (ps, /proc); use DEVBROKER_TOKEN or --token-file")
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		if token = strings.TrimSpace(string(b)); token == "" {
			return "", fmt.Errorf("--token-file %s is empty: write the token in it", file)
		}
		if fi, err := os.Stat(file); err == nil && fi.Mode().Perm()&0o077 != 0 {
			fmt.Fprintf(stderr, "devbroker serve: warning: --token-file %s is readable by other users (mode %04o); chmod 600 it\n", file, fi.Mode().Perm())
		}
	default:
		token = envToken
	}
	if addr != "" && !brokermcp.IsLoopback(addr) && token == "" {
		return "", fmt.Errorf("--http %s is not a loopback address: binding it needs a bearer token (DEVBROKER_TOKEN or --token-file)", addr)
	}
	return token, nil
}

// serveHTTP serves streamable HTTP on addr until ctx ends, then drains:
// no new calls, the calls in flight answer or are cancelled, and the
// server exits.
func serveHTTP(ctx context.Context, srv *brokermcp.Server, addr string, o *httpOptions, log *slog.Logger, stderr io.Writer) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker serve: %v\n", err)
		return exitBadUsage
	}
	h := brokermcp.NewHTTPHandler(srv, brokermcp.HTTPOptions{
		Token: o.token, AllowOrigins: o.allowOrigin, MaxSessions: o.maxSessions, SessionTimeout: o.idle,
	})
	// Headers must arrive within 10 s and an idle keep-alive connection is
	// closed after 2 minutes; bodies are bounded per request by the
	// handler (a stream's long answer must not be cut by a server-wide
	// read or write timeout).
	hs := &http.Server{
		Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if o.token == "" {
		log.Warn("no bearer token: any user of this machine can use this server; set DEVBROKER_TOKEN or --token-file")
	}
	log.Info("listening", "url", "http://"+ln.Addr().String()+"/mcp", "token", o.token != "", "max_sessions", o.maxSessions)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("http server", "err", err)
		return exitNotOK
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", srv.ShutdownGrace())
	if !srv.Drain(srv.ShutdownGrace()) {
		log.Warn("shutting down: some calls did not answer")
	}
	srv.Close() // ends the sessions, and with them their event streams
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return exitOK
}

// hookLoader lets a test entry point wrap the driver loader (fault
// injection); it is the identity otherwise.
var hookLoader = func(l broker.Loader) broker.Loader { return l }
