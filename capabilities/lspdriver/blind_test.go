package lspdriver_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// TestBlindBuildShowsNoOutsideText: the go build of a package with
// assembly gopls never compiles fails in a file outside the root (the
// assembly includes it); the answer is not ok and says so, but carries
// none of that file's text, which the assembler quotes.
func TestBlindBuildShowsNoOutsideText(t *testing.T) {
	gopls := goplsPath(t)
	base, _ := filepath.EvalSymlinks(t.TempDir())
	testtree.Write(t, base, map[string]string{
		"outside/secret.h": "PRIVATEKEYLINE one\nSECONDSECRETLINE two\n",
		"m/go.mod":         goMod,
		"m/main.go":        "package main\n\nimport \"example.com/m/p\"\n\nfunc main() { println(p.F()) }\n",
		"m/p/a.go":         "package p\n\nfunc F() int\n",
		"m/p/a.s":          "#include \"textflag.h\"\n#include \"../../outside/secret.h\"\n\nTEXT ·F(SB),NOSPLIT,$0-8\n\tRET\n",
	})
	root := filepath.Join(base, "m")
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "")
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(t)}, root)
	res := checkRoot(context.Background(), t, d, root)
	t.Logf("status %s: %s", res.Status, res.Message)
	if res.Status == engine.StatusOK {
		t.Fatalf("status ok while go build fails in the assembly; diagnostics %v", res.Diagnostics)
	}
	answer := res.Message
	for _, dg := range res.Diagnostics {
		answer += "\n" + dg.Message
	}
	for _, secret := range []string{"PRIVATEKEYLINE", "SECONDSECRETLINE"} {
		if strings.Contains(answer, secret) {
			t.Errorf("the answer carries text of a file outside the root (%s):\n%s", secret, answer)
		}
	}
	if !strings.Contains(res.Message, "go build of ./p") {
		t.Errorf("message %q: want it to name the package whose build fails", res.Message)
	}
}
