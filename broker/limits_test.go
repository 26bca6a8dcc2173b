package broker_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// TestEditToolsKeepTheSessionsFileLimit: read_file and edit_file refuse a
// file over the session's workspace per-file limit, as acquiring it does.
func TestEditToolsKeepTheSessionsFileLimit(t *testing.T) {
	m, root, _, _ := setup(t, broker.Options{Limits: workspace.Limits{MaxFileBytes: 4}})
	ctx := context.Background()
	s, err := m.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	params, _ := json.Marshal(map[string]any{"file_path": filepath.Join(root, "a.txt")})
	_, err = s.ReadFile(ctx, params)
	if fault.KindOf(err) != fault.Bounds || !strings.Contains(err.Error(), "8 bytes, over the per-file limit of 4 bytes (limits.max_file_bytes") {
		t.Fatalf("read_file of an 8-byte file over a 4-byte limit: %v", err)
	}
	params, _ = json.Marshal(map[string]any{"command": "view", "file_path": filepath.Join(root, "a.txt")})
	if _, err := s.EditFile(ctx, params); fault.KindOf(err) != fault.Bounds {
		t.Fatalf("view over the limit: %v", err)
	}
}
