package staticcheck

// Benchmarks: a warm driver against the staticcheck command, each linting
// one package after a one-line edit, and a repeated run over an unchanged
// tree. Each reports the median of its iterations ("median-ms") and peak
// resident memory where it can ("peak-rss-MB").
//
//	go test -run '^$' -bench . -benchtime 7x ./capabilities/staticcheck/

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// benchPackage is the package of parityModule that the edit benchmarks
// change and lint.
const benchPackage = "testscript"

// benchFile is the file edited.
const benchFile = benchPackage + "/testscript.go"

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func reportMedian(b *testing.B, ds []time.Duration) {
	b.ReportMetric(float64(median(ds).Microseconds())/1000, "median-ms")
}

// edited is benchFile's content with a one-line edit that differs per i.
func edited(t testing.TB, root string, i int) string {
	data, err := os.ReadFile(root + "/" + benchFile)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(data), "\nimport (", fmt.Sprintf("\n// edit %d\nimport (", i), 1)
}

func packageFiles(t testing.TB, root, pkg string) []string {
	var out []string
	for _, f := range goFiles(t, root) {
		if path.Dir(f) == pkg {
			out = append(out, f)
		}
	}
	return out
}

// BenchmarkEditDriver: a warm driver lints one package after a one-line
// edit in the workspace (not on disk).
func BenchmarkEditDriver(b *testing.B) {
	root := copyModule(b, parityModule)
	d := newDriver(b)
	files := packageFiles(b, root, benchPackage)
	runLint(b, d, &capabilities.Request{Root: root, Files: files}) // warm up
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		all := map[string]*text.Doc{benchFile: text.FromString(edited(b, root, i))}
		start := time.Now()
		runLint(b, d, &capabilities.Request{Root: root, Files: files, All: all, Changed: []string{benchFile}})
		ds = append(ds, time.Since(start))
	}
	reportMedian(b, ds)
}

// BenchmarkEditCLI: the staticcheck command lints the same package after
// the same edit, written to disk, with a warm cache.
func BenchmarkEditCLI(b *testing.B) {
	root := copyModule(b, parityModule)
	bin := cliBinary(b)
	cache := "STATICCHECK_CACHE=" + b.TempDir()
	run := func() *os.ProcessState {
		cmd := exec.Command(bin, "./"+benchPackage)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), cache)
		if out, err := cmd.CombinedOutput(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				b.Fatalf("%v\n%s", err, out)
			}
		}
		return cmd.ProcessState
	}
	run() // warm up
	var ds []time.Duration
	var rss int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := os.WriteFile(root+"/"+benchFile, []byte(edited(b, root, i)), 0o666); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		ps := run()
		ds = append(ds, time.Since(start))
		rss = max(rss, maxRSS(ps))
	}
	reportMedian(b, ds)
	b.ReportMetric(float64(rss)/1024, "peak-rss-MB")
}

// BenchmarkRepeatDriver: the second and later runs over an unchanged tree
// (the first run, cold, is reported as first-ms).
func BenchmarkRepeatDriver(b *testing.B) {
	root := copyModule(b, parityModule)
	d := newDriver(b)
	files := goFiles(b, root)
	start := time.Now()
	runLint(b, d, &capabilities.Request{Root: root, Files: files})
	first := time.Since(start)
	var ds []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		runLint(b, d, &capabilities.Request{Root: root, Files: files})
		ds = append(ds, time.Since(start))
	}
	reportMedian(b, ds)
	b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
}

// BenchmarkMemory compares peak resident memory: the staticcheck command
// over the whole module, cold, and a driver process doing the same cold
// run and then edit runs (a subprocess running TestHelperDriverProcess).
func BenchmarkMemory(b *testing.B) {
	for i := 0; i < b.N; i++ {
		root := copyModule(b, parityModule)
		cmd := exec.Command(cliBinary(b), "./...")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "STATICCHECK_CACHE="+b.TempDir())
		cmd.Run()
		cli := maxRSS(cmd.ProcessState)

		root = copyModule(b, parityModule)
		cmd = exec.Command(os.Args[0], "-test.run=^TestHelperDriverProcess$")
		cmd.Env = append(os.Environ(), "DEVBROKER_HELPER_ROOT="+root, "DEVBROKER_STATICCHECK_CACHE="+b.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		drv := maxRSS(cmd.ProcessState)
		b.ReportMetric(float64(cli)/1024, "cli-peak-rss-MB")
		b.ReportMetric(float64(drv)/1024, "driver-peak-rss-MB")
		b.ReportMetric(float64(drv)/float64(cli), "ratio")
	}
}

// TestHelperDriverProcess is BenchmarkMemory's driver process: a cold
// run over the module, then three edit runs.
func TestHelperDriverProcess(t *testing.T) {
	root := os.Getenv("DEVBROKER_HELPER_ROOT")
	if root == "" {
		t.Skip("a helper for BenchmarkMemory")
	}
	d := newDriver(t)
	runLint(t, d, &capabilities.Request{Root: root, Files: goFiles(t, root)})
	files := packageFiles(t, root, benchPackage)
	for i := range 3 {
		all := map[string]*text.Doc{benchFile: text.FromString(edited(t, root, i))}
		r := d.Run(context.Background(), &capabilities.Request{Kind: engine.Lint, Root: root, Files: files, All: all})
		if r.Status != engine.StatusOK {
			t.Fatal(r.Message)
		}
	}
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "VmHWM:") {
				kb, _ := strconv.Atoi(strings.Fields(l)[1])
				t.Logf("VmHWM %d MB", kb/1024)
			}
		}
	}
}
