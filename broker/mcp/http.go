package mcp

// This file defines the streamable HTTP endpoint: the SDK's handler, one
// broker session per MCP session, behind an optional bearer token that is
// checked on every request.

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure [NewHTTPHandler].
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN").
	Token string
	// SessionTimeout ends MCP sessions that send no request for this long
	// (and with them their broker sessions). Zero means never.
	SessionTimeout time.Duration
	// MaxRequestBytes bounds a request body; larger ones get 413. Zero
	// means DefaultMaxMessageBytes.
	MaxRequestBytes int64
}

// NewHTTPHandler returns the streamable HTTP handler of s.
func NewHTTPHandler(s *Server, opts HTTPOptions) http.Handler {
	max := opts.MaxRequestBytes
	if max == 0 {
		max = DefaultMaxMessageBytes
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, &sdk.StreamableHTTPOptions{
		Logger:              s.log,
		SessionTimeout:      opts.SessionTimeout,
		MaxRequestBodyBytes: max,
	})
	if opts.Token == "" {
		return h
	}
	want := []byte("Bearer " + opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="devbroker"`)
			http.Error(w, "devbroker: a valid bearer token is required (Authorization: Bearer TOKEN; see --token or DEVBROKER_TOKEN)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// IsLoopback reports whether a listen address ("host:port") binds only
// loopback interfaces. An empty host, 0.0.0.0 and [::] bind every
// interface and are not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
