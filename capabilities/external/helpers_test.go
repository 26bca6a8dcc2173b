package external

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// The test binary doubles as the fake tool: with DEVBROKER_FAKE=1 in its
// environment it runs fake(os.Args[1:]) instead of the tests.
func TestMain(m *testing.M) {
	if os.Getenv("DEVBROKER_FAKE") == "1" {
		os.Exit(fake(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fake is a tool that misbehaves on demand.
func fake(args []string) int {
	mode, rest := args[0], args[1:]
	switch mode {
	case "version": // prints a version
		fmt.Println("fake-tool 1.2.3\nbuilt today")
	case "cat": // copies stdin to stdout
		io.Copy(os.Stdout, os.Stdin)
	case "upper": // a formatter: uppercases stdin
		b, _ := io.ReadAll(os.Stdin)
		os.Stdout.Write(bytes.ToUpper(b))
	case "print": // prints rest[1:] as lines on stdout, exits rest[0]
		for _, l := range rest[1:] {
			fmt.Println(l)
		}
		code, _ := strconv.Atoi(rest[0])
		return code
	case "stdin-lines": // reports the number of lines on stdin
		b, _ := io.ReadAll(os.Stdin)
		fmt.Printf("-:%d:1: e: %d lines\n", bytes.Count(b, []byte("\n")), bytes.Count(b, []byte("\n")))
		return 1
	case "tree": // reports every file under the working directory, by relative and absolute path
		code := 0
		filepath.Walk(".", func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() {
				b, _ := os.ReadFile(p)
				abs, _ := filepath.Abs(p)
				fmt.Printf("%s:1:1: w: rel %q\n%s:1:1: i: abs\n", p, strings.TrimSpace(string(b)), abs)
				code = 1
			}
			return nil
		})
		return code
	case "read-all": // reports, on rest[0], every file under the working directory it can read (following symlinks)
		filepath.WalkDir(".", func(p string, _ fs.DirEntry, err error) error {
			if b, rerr := os.ReadFile(p); err == nil && rerr == nil {
				fmt.Printf("%s:1:1: w: %s holds %q\n", rest[0], p, strings.TrimSpace(string(b)))
			}
			return nil
		})
		return 1
	case "rewrite": // rewrites the file rest[0] in place, uppercased
		b, err := os.ReadFile(rest[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		os.WriteFile(rest[0], bytes.ToUpper(b), 0o600)
	case "hang": // starts a grandchild that sleeps, writes its pid to rest[0], sleeps
		cmd := exec.Command(os.Args[0], "sleep")
		cmd.Env = os.Environ()
		cmd.Stdout = os.Stdout // the grandchild holds the pipe too
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		os.WriteFile(rest[0], []byte(strconv.Itoa(cmd.Process.Pid)), 0o600)
		fmt.Fprintln(os.Stderr, "working hard")
		time.Sleep(time.Hour)
	case "linger": // prints a finding and exits, leaving a grandchild that holds stdout open
		cmd := exec.Command(os.Args[0], "sleep")
		cmd.Env = os.Environ()
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		fmt.Println("a.sh:1:1: w: found")
		return 0
	case "sleep":
		time.Sleep(time.Hour)
	case "chatty": // writes rest[1] lines "pkg/N" on stderr, each after rest[0] holds N-1 (the test's go-ahead), then a finding, exits 1
		n, _ := strconv.Atoi(rest[1])
		for i := 1; i <= n; i++ {
			for deadline := time.Now().Add(10 * time.Minute); ; time.Sleep(2 * time.Millisecond) {
				if b, _ := os.ReadFile(rest[0]); string(b) == strconv.Itoa(i-1) || time.Now().After(deadline) {
					break
				}
			}
			fmt.Fprintf(os.Stderr, "example.com/pkg/%d\n", i)
		}
		fmt.Fprintln(os.Stderr, "a.go:1:2: w: found")
		return 1
	case "silent": // writes its pid to rest[0], then sleeps without a word
		os.WriteFile(rest[0], []byte(strconv.Itoa(os.Getpid())), 0o600)
		time.Sleep(time.Hour)
	case "signal": // dies by SIGKILL after a word on stderr
		fmt.Fprintln(os.Stderr, "parser: segmentation violation")
		if self, err := os.FindProcess(os.Getpid()); err == nil {
			self.Kill() // SIGKILL where there are signals
		}
		time.Sleep(time.Hour)
	case "exit": // exits rest[0] with rest[1] on stderr
		fmt.Fprintln(os.Stderr, rest[1])
		code, _ := strconv.Atoi(rest[0])
		return code
	default:
		fmt.Fprintln(os.Stderr, "fake: unknown mode", mode)
		return 3
	}
	return 0
}

// fakeDriver builds a driver that runs the fake tool with args.
func fakeDriver(t *testing.T, cfg configs.Driver, args ...string) *Driver {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Type = "external"
	cfg.Command = append([]string{exe}, args...)
	if cfg.Timeout.Duration == 0 { // no test depends on the default timeout
		cfg.Timeout.Duration = configtest.Timeout
	}
	cfg.Env = append(cfg.Env, "DEVBROKER_FAKE=1")
	d, err := New("fake", &cfg, capabilities.Env{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return d.(*Driver)
}

// efm is a parser for the fake tool's "file:line:col: t: message" lines.
var efm = []string{"%f:%l:%c: %t: %m"}

// workspace builds a request over files (path, content pairs).
func workspace(root string, kind engine.Kind, files ...string) *capabilities.Request {
	req := &capabilities.Request{Kind: kind, Root: root, All: map[string]*text.Doc{}}
	for i := 0; i+1 < len(files); i += 2 {
		req.All[files[i]] = text.FromString(files[i+1])
		req.Files = append(req.Files, files[i])
		req.Changed = append(req.Changed, files[i])
	}
	return req
}

// defaults loads the embedded defaults through the configuration loader,
// as the broker does, each driver with the tests' generous timeout
// (configs/configtest).
func defaults(t *testing.T) *configs.Config {
	t.Helper()
	cfg, err := configtest.Default()
	if err != nil {
		t.Fatalf("embedded defaults: %v", err)
	}
	return cfg
}

// defaultDriver builds the default driver name over root, failing the test
// with the install hint when its tool is missing (.ci/install-tools
// installs what these tests use).
func defaultDriver(t *testing.T, name, root string) *Driver {
	t.Helper()
	cfg := defaults(t).Drivers[name]
	if cfg == nil {
		t.Fatalf("no default driver %q", name)
	}
	d, err := New(name, cfg, capabilities.Env{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath(cfg.Command[0]); err != nil {
		t.Fatalf("%s is not installed (run bash .ci/install-tools): %s", cfg.Command[0], cfg.Install)
	}
	return d.(*Driver)
}

// one returns the only diagnostic of r, failing otherwise.
func one(t *testing.T, r *capabilities.Result) engine.Diagnostic {
	t.Helper()
	if len(r.Diagnostics) != 1 {
		t.Fatalf("want 1 diagnostic, got %d: %+v (status %s: %s)", len(r.Diagnostics), r.Diagnostics, r.Status, r.Message)
	}
	return r.Diagnostics[0]
}

func wantStatus(t *testing.T, r *capabilities.Result, st engine.Status) {
	t.Helper()
	if r.Status != st {
		t.Fatalf("status %q (%s), want %q", r.Status, r.Message, st)
	}
}

func envFor(t *testing.T) capabilities.Env { return capabilities.Env{Root: t.TempDir()} }
