package mcp

// This file defines the streamable HTTP endpoint: the SDK's handler, one
// broker session per MCP session, behind three checks made on every
// request before the SDK sees it: the Origin (a browser page elsewhere
// must not reach a local server: DNS rebinding), the bearer token, and a
// cap on concurrent sessions. A request refused by any of them opens no
// session and runs nothing.
//
// No client can hold up another: request bodies are read under a deadline
// before anything shared is consulted, and at the cap the least recently
// used session with nothing in flight is ended to admit a new one, so
// sessions that clients left open (a client's close need not end its
// session on the server) never lock new clients out.

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultBodyTimeout bounds the reading of one request body: a client
// that declares a body and stalls is answered 408 after it.
const DefaultBodyTimeout = 30 * time.Second

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
	// MaxSessions bounds concurrent MCP sessions. A request for a new one
	// beyond it ends the least recently used session that has no call in
	// flight and no open event stream (its unwritten workspace is
	// dropped, as any ended session's is); when every session is busy,
	// it gets 503. Zero means DefaultMaxSessions.
	MaxSessions int
	// SessionTimeout ends MCP sessions that send no request for this long
	// (and with them their broker sessions). Zero means never.
	SessionTimeout time.Duration
	// BodyTimeout bounds the reading of one request body: a client that
	// declares a body and does not send it is answered 408 after it.
	// Zero means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// MaxRequestBytes bounds a request body; larger ones get 413. Zero
	// means DefaultMaxMessageBytes.
	MaxRequestBytes int64
}

// sessionIDHeader is the streamable HTTP transport's session header: a
// request without it asks for a new session.
const sessionIDHeader = "Mcp-Session-Id"

// NewHTTPHandler returns the streamable HTTP handler of s.
func NewHTTPHandler(s *Server, opts HTTPOptions) http.Handler {
	return s.drainHTTP(newGate(s, opts))
}

// newGate is the handler behind the drain: the checks, then the SDK's.
func newGate(s *Server, opts HTTPOptions) *gate {
	maxBytes := opts.MaxRequestBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxMessageBytes
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Logger:              s.log,
		SessionTimeout:      opts.SessionTimeout,
		MaxRequestBodyBytes: maxBytes,
	})
	return &gate{s: s, opts: opts, next: h, bodyTimeout: opts.BodyTimeout, activity: map[string]*sessionUse{}}
}

// gate makes the checks of every request and keeps the count of sessions
// under the cap. It never holds its lock across client I/O: a new
// session's body is read (under a deadline) before the cap is consulted,
// and the slot it takes is a reservation, not a held lock.
type gate struct {
	s    *Server
	opts HTTPOptions
	next http.Handler
	// bodyTimeout bounds the reading of a request body.
	bodyTimeout time.Duration

	mu       sync.Mutex
	pending  int                    // new-session requests admitted and not yet answered
	activity map[string]*sessionUse // by MCP session id
}

// sessionUse is what the gate knows of one session's use of HTTP.
type sessionUse struct {
	last time.Time // when its latest request started or ended
	busy int       // its requests in flight: calls, and open event streams
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
	// Host names compare without case (RFC 9110): the SDK's check of a
	// loopback Host header does not, so it gets the lower-case form.
	r.Host = strings.ToLower(r.Host)
	if !g.readBody(w, r) {
		return
	}
	if id := r.Header.Get(sessionIDHeader); id != "" || r.Method != http.MethodPost {
		if id != "" {
			g.use(id, +1)
			defer g.use(id, -1)
		}
		g.next.ServeHTTP(w, r)
		return
	}
	// A request for a new session: take a slot, evicting an idle session
	// when the server is at its cap.
	if !g.admit(w) {
		return
	}
	defer g.release()
	rec := &sessionRecorder{ResponseWriter: w, gate: g}
	g.next.ServeHTTP(rec, r)
}

// readBody reads a POST body whole, within g.bodyTimeout, so that a client
// that declares a body and stalls holds no handler past the deadline (and
// never a lock: nothing is held while reading). It answers the request
// itself and reports false when the body could not be read.
func (g *gate) readBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		return true
	}
	rc := http.NewResponseController(w)
	// Where the connection cannot take a deadline (a test's recorder),
	// the body is read without one.
	_ = rc.SetReadDeadline(time.Now().Add(g.bodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, g.maxBytes()))
	if err != nil {
		// The connection is closed after the answer: the rest of the
		// body is not waited for (the deadline stays, too).
		w.Header().Set("Connection", "close")
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			http.Error(w, fmt.Sprintf("devbroker: the request body is over %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
		default:
			g.s.log.Warn("dropped a request whose body did not arrive", "remote", r.RemoteAddr, "err", err)
			http.Error(w, fmt.Sprintf("devbroker: the request body did not arrive within %s: %v", g.bodyTimeout, err), http.StatusRequestTimeout)
		}
		return false
	}
	_ = rc.SetReadDeadline(time.Time{})
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return true
}

func (g *gate) maxBytes() int64 {
	if g.opts.MaxRequestBytes > 0 {
		return g.opts.MaxRequestBytes
	}
	return DefaultMaxMessageBytes
}

// admit takes a slot for a new session. At the cap it evicts the least
// recently used session that has no call in flight and no open stream;
// when every session is busy, it answers 503 and reports false.
func (g *gate) admit(w http.ResponseWriter) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	open := g.openSessions()
	if n := len(open) + g.pending; n >= g.opts.MaxSessions {
		victim := g.idlest(open)
		if victim == nil {
			g.s.log.Warn("refused a new session: every session of the server's limit is busy", "sessions", n, "max", g.opts.MaxSessions)
			w.Header().Set("Retry-After", "10")
			http.Error(w, fmt.Sprintf("devbroker: %d sessions are open and busy (a call in flight or an open stream), the server's limit (--max-sessions %d); close a session (HTTP DELETE) or retry later", n, g.opts.MaxSessions), http.StatusServiceUnavailable)
			return false
		}
		idle := "never used"
		if u := g.activity[victim.ID()]; u != nil {
			idle = time.Since(u.last).Round(time.Millisecond).String()
		}
		g.s.log.Warn("ended the least recently used session to admit a new one: the server is at its session limit; its unwritten workspace changes are dropped",
			"mcp_session", victim.ID(), "idle", idle, "max", g.opts.MaxSessions)
		delete(g.activity, victim.ID())
		_ = victim.Close()
	}
	g.pending++
	return true
}

// release gives back the slot admit took: the session it opened, if any,
// is counted among the open ones from now on.
func (g *gate) release() {
	g.mu.Lock()
	g.pending--
	g.mu.Unlock()
}

// openSessions lists the open MCP sessions. Called with g.mu held.
func (g *gate) openSessions() []*sdk.ServerSession {
	var out []*sdk.ServerSession
	live := map[string]bool{}
	for ss := range g.s.sdk.Sessions() {
		out = append(out, ss)
		live[ss.ID()] = true
	}
	for id := range g.activity {
		if !live[id] {
			delete(g.activity, id) // ended: closed, deleted or timed out
		}
	}
	return out
}

// idlest returns the open session with nothing in flight that was used
// least recently, or nil when every one is busy. Called with g.mu held.
func (g *gate) idlest(open []*sdk.ServerSession) *sdk.ServerSession {
	var best *sdk.ServerSession
	var bestLast time.Time
	for _, ss := range open {
		var last time.Time
		if u := g.activity[ss.ID()]; u != nil {
			if u.busy > 0 {
				continue
			}
			last = u.last
		}
		if best == nil || last.Before(bestLast) {
			best, bestLast = ss, last
		}
	}
	return best
}

// use counts a request of session id starting (+1) or ending (-1).
// Only open sessions are recorded: a request naming an id no session has
// (the transport answers it 404) leaves nothing behind.
func (g *gate) use(id string, delta int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	u := g.activity[id]
	if u == nil {
		if delta < 0 || !g.isOpen(id) {
			return
		}
		u = &sessionUse{}
		g.activity[id] = u
	}
	u.busy += delta
	u.last = time.Now()
}

// isOpen reports whether an MCP session with id is open.
func (g *gate) isOpen(id string) bool {
	for ss := range g.s.sdk.Sessions() {
		if ss.ID() == id {
			return true
		}
	}
	return false
}

// sessionRecorder notes the session a new-session request opened, from
// the session header of its answer, as just used.
type sessionRecorder struct {
	http.ResponseWriter
	gate *gate
	seen bool
}

func (s *sessionRecorder) WriteHeader(code int) {
	s.note()
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionRecorder) Write(b []byte) (int, error) {
	s.note()
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (s *sessionRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush passes flushes on: an answer streamed as events needs them.
func (s *sessionRecorder) Flush() {
	s.note()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *sessionRecorder) note() {
	if s.seen {
		return
	}
	s.seen = true
	if id := s.Header().Get(sessionIDHeader); id != "" {
		s.gate.use(id, 0)
	}
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
