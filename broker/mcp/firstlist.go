package mcp

// This file makes the first tools/list complete: it waits until the root
// has said which drivers it expects to work (broker.Root.Expected: a walk
// of the root and a look for each tool, a few milliseconds, begun when
// the server started), so that a client that lists the tools only once
// sees check and the language tools of the root's languages. A tool the
// probe then finds not working is removed with
// notifications/tools/list_changed.

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxListWait bounds how long a tools/list waits for the root's drivers to
// say what they expect (a walk of a slow file system): past it, the list
// has what was found so far, and list_changed tells the rest.
const maxListWait = 3 * time.Second

// listExpected holds a tools/list until the root's expected kinds are
// advertised (at most maxListWait, or until the request ends).
func (s *Server) listExpected(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/list" {
			return next(ctx, method, req)
		}
		select {
		case <-s.root.Expected():
		default:
			start := time.Now()
			defer func() { s.log.Debug("tools/list waited for the expected tools", "took", time.Since(start)) }()
			t := time.NewTimer(maxListWait)
			select {
			case <-s.root.Expected():
			case <-t.C:
				s.log.Warn("tools/list answered before the root's tools were found", "waited", maxListWait)
			case <-ctx.Done():
			}
			t.Stop()
		}
		return next(ctx, method, req)
	}
}
