package external

import (
	"context"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// With project_markers and dir, a command runs in dir under each
// project's directory, and the answer names that directory as the one it
// ran in.
func TestProjectRunNamesItsDirectory(t *testing.T) {
	perFile := false
	d := fakeDriver(t, configs.Driver{Input: "staged", PerFile: &perFile, Errorformat: efm, ProjectMarkers: []string{"proj.mark"}, Dir: "sub"}, "print", "0")
	root := t.TempDir()
	req := workspace(root, engine.Lint, "p/proj.mark", "", "p/sub/a.txt", "a\n", "top.txt", "b\n", "sub/c.txt", "c\n")
	req.Files = []string{"p/sub/a.txt", "top.txt"}
	res := d.Run(context.Background(), req)
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	want := map[string]string{".": "sub", "p": "p/sub"}
	if len(res.Projects) != len(want) {
		t.Fatalf("projects %+v, want %v", res.Projects, want)
	}
	for _, pf := range res.Projects {
		if w, ok := want[pf.Root]; !ok || pf.ServerRoot != w || !pf.Command {
			t.Errorf("project %s ran in %q (command %v), want %q", pf.Root, pf.ServerRoot, pf.Command, w)
		}
	}
}
