package confine

import (
	"context"

	"github.com/devbroker/devbroker/engine/rootfs"
)

// Reach reports whether the server srv, opening docs (workspace paths of
// fsys's root, with their content), would read a file outside the root
// but the system's; it returns why ("" when it would not), naming the
// file and line that reaches out and the path (never its content).
func Reach(ctx context.Context, fsys *rootfs.FS, srv Server, docs []Doc) string {
	s := NewScan(ctx, fsys, srv, docs)
	if s.why != "" {
		return s.why
	}
	for _, d := range docs {
		if why := s.File(d.Path); why != "" {
			return why
		}
	}
	return ""
}
