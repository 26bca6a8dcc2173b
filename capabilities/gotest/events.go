package gotest

// This file reads `go test -json` (test2json's events, and the go
// command's build-output and build-fail events) into what a run found:
// each failed test with its output, each package's result, and the
// compiler's and vet's findings when a package did not build.

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strings"
)

// event is one line of go test -json.
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	ImportPath  string // build-output, build-fail
	FailedBuild string
}

// Bounds on what a run keeps of the output.
const (
	maxTestLines  = 200     // lines kept of one test's (or package's) output
	maxOtherLines = 200     // lines kept that are not events
	maxLineBytes  = 4 << 10 // bytes kept of one line
)

// report is what one go test run found.
type report struct {
	passed, failed, skipped int
	// packages is each tested package's result: "ok", "FAIL", "skip"
	// (no test files) or "build failed".
	packages map[string]string
	// failures are the failed tests in the order they ended; a
	// package that failed outside any test has one with Test "".
	failures []*failure
	// build holds each package's build output (compiler and vet), by
	// import path ("p" or "p [p.test]").
	build map[string][]string
	// failedBuild names the builds that failed (a package's
	// FailedBuild): their build output holds the findings.
	failedBuild map[string]bool
	// running are the tests started and not ended (when the run was
	// cut), as "pkg TestName".
	running []string
	// other is what the stream held that is not an event.
	other []string
	// cut reports that output was dropped past the bounds.
	cut bool
	// timedOut is the go command's own timeout panic ("panic: test
	// timed out after 9s"), when a test binary ran past -timeout; the
	// tests it names as running are added to running.
	timedOut string
}

// failure is a failed test and its output.
type failure struct {
	pkg, test string
	lines     []string
}

type testKey struct{ pkg, test string }

// readEvents reads a go test -json stream to its end. It never fails: a
// line that is not an event is kept in other (go test prints a few, like
// a command-line error), and a stream cut short leaves its started tests
// in running.
func readEvents(r io.Reader) *report {
	rep := &report{packages: map[string]string{}, build: map[string][]string{}, failedBuild: map[string]bool{}}
	out := map[testKey][]string{}
	started := map[testKey]bool{}
	var order []testKey
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var ev event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &ev) != nil || ev.Action == "" {
			rep.keep(&rep.other, string(line), maxOtherLines)
			continue
		}
		k := testKey{ev.Package, ev.Test}
		switch ev.Action {
		case "run":
			if !started[k] {
				started[k] = true
				order = append(order, k)
			}
		case "output":
			rep.timeout(ev)
			lines := out[k]
			rep.keep(&lines, strings.TrimSuffix(ev.Output, "\n"), maxTestLines)
			out[k] = lines
		case "build-output":
			lines := rep.build[ev.ImportPath]
			rep.keep(&lines, strings.TrimSuffix(ev.Output, "\n"), maxTestLines)
			rep.build[ev.ImportPath] = lines
		case "pass", "fail", "skip":
			delete(started, k)
			rep.end(ev, out[k])
			delete(out, k)
		}
	}
	for _, k := range order {
		if started[k] {
			rep.running = append(rep.running, strings.TrimSpace(k.pkg+" "+k.test))
		}
	}
	return rep
}

// end records a test's or a package's end.
func (rep *report) end(ev event, lines []string) {
	if ev.Test == "" {
		switch {
		case ev.FailedBuild != "":
			rep.packages[ev.Package] = "build failed"
			rep.failedBuild[ev.FailedBuild] = true
		case ev.Action == "fail":
			rep.packages[ev.Package] = "FAIL"
			if !slices.ContainsFunc(rep.failures, func(f *failure) bool { return f.pkg == ev.Package }) {
				rep.failures = append(rep.failures, &failure{pkg: ev.Package, lines: lines})
			}
		case ev.Action == "skip":
			rep.packages[ev.Package] = "skip"
		default:
			rep.packages[ev.Package] = "ok"
		}
		return
	}
	switch ev.Action {
	case "pass":
		rep.passed++
	case "skip":
		rep.skipped++
	case "fail":
		rep.failed++
		// A parent test fails with its subtests: report the
		// subtest, whose output says why, and not the parent too.
		if !slices.ContainsFunc(rep.failures, func(f *failure) bool {
			return f.pkg == ev.Package && strings.HasPrefix(f.test, ev.Test+"/")
		}) {
			rep.failures = append(rep.failures, &failure{pkg: ev.Package, test: ev.Test, lines: lines})
		}
	}
}

// timeout notes the go command's timeout panic and the tests it names as
// running: "panic: test timed out after 9s", "running tests:", then
// "\t\tTestC (9s)" lines.
func (rep *report) timeout(ev event) {
	line := strings.TrimSuffix(ev.Output, "\n")
	if strings.HasPrefix(line, "panic: test timed out after ") {
		rep.timedOut = line
		return
	}
	if rep.timedOut == "" || !strings.HasPrefix(line, "\t\t") {
		return
	}
	if name, _, ok := strings.Cut(strings.TrimSpace(line), " ("); ok && !strings.ContainsAny(name, " \t") {
		if r := ev.Package + " " + name; !slices.Contains(rep.running, r) {
			rep.running = append(rep.running, r)
		}
	}
}

// keep appends line to lines within max lines, marking the report cut
// past it.
func (rep *report) keep(lines *[]string, line string, max int) {
	if len(*lines) >= max {
		rep.cut = true
		return
	}
	if len(line) > maxLineBytes {
		line = line[:maxLineBytes]
		rep.cut = true
	}
	*lines = append(*lines, line)
}
