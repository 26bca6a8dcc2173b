package mcp

// This file defines the streamable HTTP endpoint: the SDK's handler, one
// broker session per MCP session, behind three checks made on every
// request before the SDK sees it: the Origin (a browser page elsewhere
// must not reach a local server: DNS rebinding), the bearer token, and a
// cap on concurrent sessions. A request refused by any of them opens no
// session and runs nothing.

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxSessions bounds concurrent HTTP sessions when
// HTTPOptions.MaxSessions is zero.
const DefaultMaxSessions = 64

// HTTPOptions configure [NewHTTPHandler].
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"; the scheme in any case).
	Token string
	// AllowOrigins are browser origins ("https://app.example.com") allowed
	// besides loopback ones. A request with any other Origin header gets
	// 403; one without an Origin header (not from a browser) passes.
	AllowOrigins []string
	// MaxSessions bounds concurrent MCP sessions; a request for a new one
	// beyond it gets 503. Zero means DefaultMaxSessions.
	MaxSessions int
	// SessionTimeout ends MCP sessions that send no request for this long
	// (and with them their broker sessions). Zero means never.
	SessionTimeout time.Duration
	// MaxRequestBytes bounds a request body; larger ones get 413. Zero
	// means DefaultMaxMessageBytes.
	MaxRequestBytes int64
}

// sessionIDHeader is the streamable HTTP transport's session header: a
// request without it asks for a new session.
const sessionIDHeader = "Mcp-Session-Id"

// NewHTTPHandler returns the streamable HTTP handler of s.
func NewHTTPHandler(s *Server, opts HTTPOptions) http.Handler {
	maxBytes := opts.MaxRequestBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Logger:              s.log,
		SessionTimeout:      opts.SessionTimeout,
		MaxRequestBodyBytes: maxBytes,
	})
	g := &gate{s: s, opts: opts, next: h}
	return s.drainHTTP(g)
}

// gate makes the checks of every request.
type gate struct {
	s    *Server
	opts HTTPOptions
	next http.Handler
	// newMu makes counting the sessions and opening one atomic.
	newMu sync.Mutex
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, g.opts.AllowOrigins) {
		g.s.log.Warn("refused a request from a foreign origin", "origin", origin, "remote", r.RemoteAddr)
		http.Error(w, fmt.Sprintf("devbroker: origin %q is not allowed: only loopback origins are, unless the server is started with --allow-origin %s", origin, origin), http.StatusForbidden)
		return
	}
	if g.opts.Token != "" && !bearerOK(r.Header.Get("Authorization"), g.opts.Token) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="devbroker"`)
		http.Error(w, "devbroker: a valid bearer token is required (Authorization: Bearer TOKEN; the server's token comes from DEVBROKER_TOKEN or --token-file)", http.StatusUnauthorized)
		return
	}
	if r.Method != http.MethodPost || r.Header.Get(sessionIDHeader) != "" {
		g.next.ServeHTTP(w, r)
		return
	}
	// A request for a new session.
	g.newMu.Lock()
	defer g.newMu.Unlock()
	if n := g.sessions(); n >= g.opts.MaxSessions {
		g.s.log.Warn("refused a new session: the server is at its session limit", "sessions", n, "max", g.opts.MaxSessions)
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("devbroker: %d sessions are open, the server's limit (--max-sessions %d); close a session (HTTP DELETE) or retry later", n, g.opts.MaxSessions), http.StatusServiceUnavailable)
		return
	}
	g.next.ServeHTTP(w, r)
}

// sessions counts the open MCP sessions.
func (g *gate) sessions() int {
	n := 0
	for range g.s.sdk.Sessions() {
		n++
	}
	return n
}

// bearerOK reports whether an Authorization header carries token with the
// Bearer scheme (in any case, as RFC 9110 says schemes are).
func bearerOK(header, token string) bool {
	scheme, got, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
}

// originAllowed reports whether a browser origin may use the server: a
// loopback one (localhost, 127.0.0.0/8, ::1), or one listed in allow
// (exactly, or "*" for any).
func originAllowed(origin string, allow []string) bool {
	if slices.Contains(allow, "*") || slices.ContainsFunc(allow, func(a string) bool {
		return strings.EqualFold(strings.TrimRight(a, "/"), origin)
	}) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// IsLoopback reports whether a listen address ("host:port") binds only
// loopback interfaces. An empty host, 0.0.0.0 and [::] bind every
// interface and are not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	return isLoopbackHost(host)
}
