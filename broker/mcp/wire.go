package mcp

// This file renders results as text for a model (the probe in the report's
// one text form, capabilities.Report.WriteText). The structured content of
// every tool is broker/wire's, the one encoding every surface sends.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// devResultText renders a DevResult for a model to read: a plan's (plan
// true: a failure names its step by number) or a step tool's (the failure
// is the step's).
func devResultText(r *wire.DevResult, plan bool) string {
	var b strings.Builder
	if r.Error != nil {
		e := r.Error
		where := "the plan"
		switch {
		case e.Step > 0 && plan:
			where = fmt.Sprintf("step %d (%s)", e.Step, e.Name)
		case e.Name != "":
			where = e.Name
		}
		b.WriteString(failedLine(where, e.Kind, e.Retryable, e.Message) + "\n")
		if len(e.Written) > 0 {
			fmt.Fprintf(&b, "written before the failure: %s\n", strings.Join(e.Written, ", "))
		}
		if e.Temp != "" {
			fmt.Fprintf(&b, "temporary file left on disk: %s\n", e.Temp)
		}
	} else {
		fmt.Fprintf(&b, "ok: %t\n", r.OK)
	}
	labels := make([]string, 0, len(r.Reads))
	for k := range r.Reads {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	for _, k := range labels {
		fmt.Fprintf(&b, "--- read %s ---\n%s\n--- end %s ---\n", k, r.Reads[k], k)
	}
	for _, a := range r.Answers {
		if len(r.Answers) > 1 {
			fmt.Fprintf(&b, "--- step %d (%s) ---\n", a.Step, a.Name)
		}
		a.WriteText(&b)
	}
	for _, c := range r.Changes {
		from := ""
		if c.From != "" {
			from = " from " + c.From
		}
		fmt.Fprintf(&b, "change: %s %s%s (+%d -%d)\n", c.Kind, c.Path, from, c.Added, c.Removed)
	}
	if len(r.Written) > 0 {
		fmt.Fprintf(&b, "written: %s\n", strings.Join(r.Written, ", "))
	}
	for _, f := range r.Formatted {
		fmt.Fprintln(&b, f.Line())
		b.WriteString(f.Diff)
	}
	for _, m := range r.Merged {
		fmt.Fprintln(&b, m.Line())
	}
	if len(r.ChangedAfterWrite) > 0 {
		fmt.Fprintf(&b, "changed on disk right after this write, by something outside the broker (read them again): %s\n", strings.Join(r.ChangedAfterWrite, ", "))
	}
	for _, d := range r.Drivers {
		switch {
		case d.Status == string(engine.StatusUnchecked):
			fmt.Fprintf(&b, "unchecked: %s\n", d.Message)
		case d.Status != string(engine.StatusOK) || d.Message != "":
			fmt.Fprintf(&b, "driver %s: %s %s\n", d.Driver, d.Status, d.Message)
		}
	}
	for _, n := range r.Coverage {
		fmt.Fprintln(&b, n.Line())
	}
	for _, p := range r.Projects {
		fmt.Fprintln(&b, p.Line())
	}
	if bl := r.Baseline; bl != nil {
		against := "the content before the change"
		if bl.Since != "" {
			against = bl.Since
		}
		fmt.Fprintf(&b, "findings against %s: %d introduced, %d pre-existing\n", against, bl.Introduced, bl.PreExisting)
	}
	writeDiagnostics(&b, r.Diagnostics)
	if len(r.PreExisting) > 0 {
		fmt.Fprintf(&b, "pre-existing (they do not stop the plan: fail_on introduced):\n")
		writeDiagnostics(&b, r.PreExisting)
	}
	for _, s := range r.Stale {
		switch s.Disk {
		case "deleted":
			fmt.Fprintf(&b, "stale: %s was deleted on disk; the unwritten change is based on %s\n", s.Path, s.BaseRevision)
		case "created":
			fmt.Fprintf(&b, "stale: %s was created on disk (%s) where the workspace adds it\n", s.Path, s.DiskRevision)
		default:
			not := ""
			if s.NotMerged != "" {
				not = "; " + s.NotMerged
			}
			fmt.Fprintf(&b, "stale: %s changed on disk (now %s); the unwritten change is based on %s%s\n", s.Path, s.DiskRevision, s.BaseRevision, not)
		}
	}
	if len(r.Unwritten) > 0 {
		fmt.Fprintf(&b, "unwritten (in the workspace, not on disk): %s\n", strings.Join(r.Unwritten, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeDiagnostics writes one line per finding, as the command line
// prints them, with [introduced] or [pre-existing] where the answer was
// compared with its baseline, and each related place under it.
func writeDiagnostics(b *strings.Builder, ds []wire.Diagnostic) {
	for _, d := range ds {
		text := d.String()
		if d.Introduced != nil {
			mark := " [pre-existing]"
			if *d.Introduced {
				mark = " [introduced]"
			}
			first, related, ok := strings.Cut(text, "\n")
			if text = first + mark; ok {
				text += "\n" + related
			}
		}
		fmt.Fprintln(b, text)
	}
}

// failedLine is the line a failure's text starts with: where it failed,
// its kind, whether to retry, and its whole message.
func failedLine(where, kind string, retryable bool, msg string) string {
	retry := "do not retry it unchanged"
	if retryable {
		retry = "it may succeed if retried"
	}
	return fmt.Sprintf("FAILED at %s [%s; %s]: %s", where, kind, retry, msg)
}

// probeText renders the probe for a model: the report's one text form,
// as devbroker probe prints it, then the tools offered now.
func probeText(r *capabilities.Report, tools []string) string {
	var b strings.Builder
	_ = r.WriteText(&b) // a strings.Builder takes every write
	fmt.Fprintf(&b, "tools: %s", strings.Join(tools, ", "))
	return b.String()
}
