package lsp

// This file defines [Server.Links]: the symlinks under the root as the
// latest check of the inputs found them (verify.go), so that a caller that
// must not show the server what a symlink leaving the root reaches (see
// capabilities/lspdriver) need not walk the whole root again; and
// [Began], which lets that check serve the rest of the request.

import (
	"context"
	"path/filepath"
	"strings"
	"time"
)

// Links returns the workspace paths (slash-separated, relative to the
// root) of the symlinks under the root, outside VCS metadata and
// node_modules, as a check of the inputs that began after ctx's request
// began (see [Began]) found them, running one if none did (under
// [Server.Alongside]: as the latest check before the one alongside the
// request found them, which that one confirms), and true. It
// may list paths that are no longer symlinks; it misses none. It returns
// false when that check could not see every input: the caller then walks
// the root itself.
func (s *Server) Links(ctx context.Context) ([]string, bool) {
	links := s.latestLinks(ctx)
	if links == nil {
		return nil, false
	}
	var out []string
	for _, p := range *links {
		rel, err := filepath.Rel(s.cfg.Root, p)
		if err != nil || !filepath.IsLocal(rel) || inNodeModules(rel) {
			continue
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out, true
}

// latestLinks returns the symlinks under the root (absolute) of the
// check of the inputs that serves ctx's request, or nil when that check
// could not see every input: under [Server.Alongside], the latest
// complete check before it, which the check alongside the request
// confirms; else a check that began after the request began.
func (s *Server) latestLinks(ctx context.Context) *[]string {
	if a := alongsideOf(ctx, s); a != nil {
		return &a.links
	}
	s.verify(ctx)
	if !s.track.verified() {
		return nil
	}
	links := s.track.symlinks()
	return &links
}

// inNodeModules reports whether the relative path rel is under a
// node_modules directory.
func inNodeModules(rel string) bool {
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part == "node_modules" {
			return true
		}
	}
	return false
}

// Began returns ctx marked with the time a request began. A check of the
// inputs (verify.go) that started after that, for this request or
// another, has seen every change completed before the request began: the
// request's later ones are spared ([Server.Links] and the changes
// collected before each call then share one). A caller marks a request
// once, before it asks the server anything.
func Began(ctx context.Context) context.Context {
	return context.WithValue(ctx, beganKey{}, time.Now())
}

// beganKey is the context key of Began.
type beganKey struct{}
