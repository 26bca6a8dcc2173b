package main

// A root that is the home directory (--root ~, a dev container whose home
// is the workspace): configuration files of the user's tools lie inside
// it, where an agent can write them, so they must not run anything before
// the root is trusted.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// homeEnv is the environment of a devbroker whose home is root, with the
// go command's caches kept where they are (a cold build cache would only
// make the test slow).
func homeEnv(t *testing.T, root string) []string {
	t.Helper()
	var keep []string
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatal(err)
		}
		keep = append(keep, v+"="+strings.TrimSpace(string(out)))
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "GOENV", "GOFLAGS":
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "HOME="+root), keep...)
}

// TestHomeInRootGoEnvIsInert: a go env file inside an untrusted root that
// sets GOFLAGS=-toolexec=PROGRAM ran PROGRAM for every package devbroker
// lint built (120 times); it is now ignored until the root is trusted.
func TestHomeInRootGoEnvIsInert(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	marker := filepath.Join(t.TempDir(), "ran")
	evil := filepath.Join(root, "evil.sh")
	if err := os.WriteFile(evil, []byte("#!/bin/sh\necho ran >> "+marker+"\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	testtree.Write(t, root, map[string]string{".config/go/env": "GOFLAGS=-toolexec=" + evil + "\n"})
	cmd := exec.Command(devbrokerBin(t), "lint", "--root", root)
	cmd.Env = homeEnv(t, root)
	out, _ := cmd.CombinedOutput()
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the go env file inside the untrusted root ran its program %d times:\n%s", strings.Count(string(b), "ran"), out)
	}
	// The probe says why it is not used, and how to trust.
	cmd = exec.Command(devbrokerBin(t), "probe", "--root", root)
	cmd.Env = homeEnv(t, root)
	out, _ = cmd.CombinedOutput()
	if !strings.Contains(string(out), "the go command's env file") || !strings.Contains(string(out), "devbroker trust") {
		t.Errorf("the probe does not say the go env file is not used:\n%s", out)
	}
}

// TestHomeInRootUserConfigIsInert: the user's devbroker configuration
// inside an untrusted root (written by an agent's write_file) ran its
// driver at the next lint; it now applies only once the root is trusted.
func TestHomeInRootUserConfigIsInert(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	marker := filepath.Join(t.TempDir(), "ran")
	cfg := `[drivers.mylint]
type = "external"
command = ["sh", "-c", "echo ran >> ` + marker + `"]
input = "stdin"
errorformat = ["%f:%l: %m"]

[languages.text]
file_types = ["*.txt"]
lint = ["mylint"]
`
	testtree.Write(t, root, map[string]string{".config/devbroker/config.toml": cfg})
	cmd := exec.Command(devbrokerBin(t), "lint", "--root", root, "a.txt")
	cmd.Env = homeEnv(t, root)
	out, _ := cmd.CombinedOutput()
	if _, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the user configuration inside the untrusted root ran its driver:\n%s", out)
	}
	// Trusted for one run (--trust), it applies.
	cmd = exec.Command(devbrokerBin(t), "lint", "--root", root, "--trust", "a.txt")
	cmd.Env = homeEnv(t, root)
	out, _ = cmd.CombinedOutput()
	if _, err := os.ReadFile(marker); err != nil {
		t.Fatalf("trusted, the user configuration inside the root does not apply:\n%s", out)
	}
}

// TestTokenNotPassedToTools: DEVBROKER_TOKEN, the HTTP server's secret,
// was in the environment of every tool devbroker started.
func TestTokenNotPassedToTools(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", ".devbroker.toml": `[drivers.envlint]
type = "external"
command = ["sh", "-c", "echo \"a.txt:1: token=[$DEVBROKER_TOKEN]\""]
input = "stdin"
severity = "warning"
errorformat = ["%f:%l: %m"]
exit_codes = { ok = [0] }

[languages.text]
file_types = ["*.txt"]
lint = ["envlint"]
`})
	cmd := exec.Command(devbrokerBin(t), "lint", "--root", root, "--trust", "a.txt")
	cmd.Env = append(os.Environ(), "DEVBROKER_TOKEN=s3cret")
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "s3cret") {
		t.Fatalf("a tool saw the token:\n%s", out)
	}
	if !strings.Contains(string(out), "token=[]") {
		t.Fatalf("the tool did not run (the test proves nothing):\n%s", out)
	}
}
