package main

// End-to-end tests of trust through the real binary over MCP: nothing a
// project's .devbroker.toml names runs until the user trusts the root,
// and a session's edit of that file never takes effect without the user.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// markerTOML is a project whose driver, if any of its commands ran,
// would create a file next to the root (in dir's parent).
const markerTOML = `inherit_defaults = false
[languages.notes]
file_types = ["*.txt"]
lint = ["mark"]

[drivers.mark]
type = "external"
command = ["sh", "-c", "touch ../marker-run"]
version_command = ["sh", "-c", "touch ../marker-version; echo 1"]
errorformat = ["%f:%l: %m"]
smoke = { file = "a.txt", content = "x" }
`

// benignTOML names no command.
const benignTOML = `inherit_defaults = false
[languages.notes]
file_types = ["*.txt"]
lint = []
`

// trustRoots makes a parent directory with a root in it and a trust list
// of the test's own; markers land in the parent.
func trustRoots(t *testing.T, config string) (parent, root string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	parent = t.TempDir()
	root = filepath.Join(parent, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"notes.txt": "one\n"}
	if config != "" {
		files[".devbroker.toml"] = config
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return parent, root
}

func assertNoMarkers(t *testing.T, parent string) {
	t.Helper()
	for _, m := range []string{"marker-run", "marker-version"} {
		if _, err := os.Stat(filepath.Join(parent, m)); err == nil {
			t.Fatalf("%s exists: a command of the untrusted configuration ran", m)
		}
	}
}

// probeDriver calls the probe tool and returns the named driver's line.
func probeDriver(t *testing.T, cs *sdk.ClientSession, name string) (state, reason string) {
	t.Helper()
	res := callTool(t, cs, "probe", map[string]any{})
	if res.IsError {
		t.Fatalf("probe: %s", resultText(res))
	}
	out := decodeStructured[struct {
		Drivers []struct{ Name, State, Reason string }
	}](t, res)
	for _, d := range out.Drivers {
		if d.Name == name {
			return d.State, d.Reason
		}
	}
	t.Fatalf("probe lists no driver %s: %s", name, resultText(res))
	return "", ""
}

// probeProject calls the probe tool and returns what it says of the
// project file: whether it is trusted, and its summary and reason.
func probeProject(t *testing.T, cs *sdk.ClientSession) (trusted bool, text string) {
	t.Helper()
	res := callTool(t, cs, "probe", map[string]any{})
	if res.IsError {
		t.Fatalf("probe: %s", resultText(res))
	}
	out := decodeStructured[struct {
		Drivers []struct{ Name string }
		Project *struct {
			Trusted         bool
			Summary, Reason string
		}
	}](t, res)
	if out.Project == nil {
		t.Fatalf("probe says nothing of the project file: %s", resultText(res))
	}
	for _, d := range out.Drivers {
		if d.Name == "mark" && !out.Project.Trusted {
			t.Fatalf("an untrusted file's driver is in the set: %s", resultText(res))
		}
	}
	if !out.Project.Trusted && !strings.Contains(resultText(res), "none of it applies") {
		t.Fatalf("the probe's text does not say the file does not apply: %s", resultText(res))
	}
	return out.Project.Trusted, out.Project.Summary + " " + out.Project.Reason
}

// writeConfig has the session write .devbroker.toml (reading it first
// when it exists, as write_file asks).
func writeConfig(t *testing.T, cs *sdk.ClientSession, root, content string, exists bool) {
	t.Helper()
	path := filepath.Join(root, ".devbroker.toml")
	if exists {
		if res := callTool(t, cs, "read_file", map[string]any{"file_path": path}); res.IsError {
			t.Fatalf("read_file: %s", resultText(res))
		}
	}
	if res := callTool(t, cs, "write_file", map[string]any{"file_path": path, "content": content}); res.IsError {
		t.Fatalf("write_file: %s", resultText(res))
	}
}

// Starting the server on an untrusted root applies and runs nothing of
// the project's, and the probe tool says so and how to trust it.
func TestServeUntrustedStartRunsNothing(t *testing.T) {
	parent, root := trustRoots(t, markerTOML)
	cs := connectStdio(t, root)
	assertNoMarkers(t, parent)
	trusted, text := probeProject(t, cs)
	if trusted || !strings.Contains(text, "devbroker trust ") || !strings.Contains(text, "touch ../marker-version") {
		t.Fatalf("project: %v: %s", trusted, text)
	}
	assertNoMarkers(t, parent)
}

// A session that writes a .devbroker.toml and then probes runs nothing.
func TestSessionWrittenConfigRunsNothing(t *testing.T) {
	parent, root := trustRoots(t, "")
	cs := connectStdio(t, root, "--tools", "full") // writeConfig uses read_file and write_file
	writeConfig(t, cs, root, markerTOML, false)
	if trusted, text := probeProject(t, cs); trusted {
		t.Fatalf("project: trusted: %s", text)
	}
	assertNoMarkers(t, parent)
}

// In a trusted root, a session's edit of the file changes its hash: the
// root is untrusted again until the user trusts the new file.
func TestSessionEditUntrustsTheRoot(t *testing.T) {
	parent, root := trustRoots(t, benignTOML)
	if out, err := exec.Command(devbrokerBin(t), "trust", root).CombinedOutput(); err != nil {
		t.Fatalf("devbroker trust: %v\n%s", err, out)
	}
	cs := connectStdio(t, root, "--tools", "full") // writeConfig uses read_file and write_file
	writeConfig(t, cs, root, markerTOML, true)
	if trusted, text := probeProject(t, cs); trusted || !strings.Contains(text, "changed since you trusted it") {
		t.Fatalf("project: %v: %s", trusted, text)
	}
	assertNoMarkers(t, parent)
}

// --trust trusts the file as it was at start-up: a session's edit is not
// trusted, and the trust list is never written.
func TestServeTrustFlagPinsTheStartupFile(t *testing.T) {
	parent, root := trustRoots(t, benignTOML)
	cs := connectStdio(t, root, "--trust", "--tools", "full") // writeConfig uses read_file and write_file
	writeConfig(t, cs, root, markerTOML, true)
	if trusted, text := probeProject(t, cs); trusted || !strings.Contains(text, "changed since this devbroker started with --trust") {
		t.Fatalf("project: %v: %s", trusted, text)
	}
	assertNoMarkers(t, parent)
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_STATE_HOME"), "devbroker", "trust.json")); err == nil {
		t.Fatal("--trust wrote the trust list")
	}
}

// --trust on a root whose file names commands runs them, for this server.
func TestServeTrustFlagRuns(t *testing.T) {
	parent, root := trustRoots(t, markerTOML)
	cs := connectStdio(t, root, "--trust")
	if state, reason := probeDriver(t, cs, "mark"); state != "found" {
		t.Fatalf("mark: %s: %s", state, reason)
	}
	if _, err := os.Stat(filepath.Join(parent, "marker-version")); err != nil {
		t.Fatalf("with --trust, the version command did not run: %v", err)
	}
}
