package external

// This file defines the format of ranges of lines (format's only:
// "changed") with a formatter whose configuration gives range_args: one
// run of the command per run of changed lines, the last first, each on
// what the run before left.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// FormatsRanges reports whether the driver formats ranges of lines: a
// formatter reading standard input whose configuration gives range_args.
func (d *Driver) FormatsRanges() bool {
	return d.cfg.Output == "stdout" && d.input == InputStdin && len(d.cfg.RangeArgs) > 0
}

// Canonical reports whether the configuration says the formatter is
// canonical (the key canonical).
func (d *Driver) Canonical() bool { return d.cfg.Canonical }

// formatRanges formats the runs of lines req.Ranges lists in each file,
// and says so in the result's Formatted. Lines the formatter rewrites
// keep the endings they had (a formatter that writes LF leaves a CRLF
// file CRLF), and new lines take the file's.
func (d *Driver) formatRanges(ctx context.Context, root string, req *capabilities.Request, files []string) *capabilities.Result {
	res := newAnswer()
	v, err := d.view(root, req.All, nil, nil, false)
	if err != nil {
		return crashed(err)
	}
	defer v.close()
	for _, p := range files {
		cur, ok := req.All[p], true
		ranges := req.Ranges[p]
		for i := len(ranges) - 1; i >= 0 && ok; i-- {
			argv := append(slices.Clone(d.cfg.Command), rangeArgs(d.cfg.RangeArgs, cur, ranges[i])...)
			r := d.runAll(ctx, argv, true, true, root, v, map[string]*text.Doc{p: cur}, []string{p})[0]
			what := fmt.Sprintf("%s on lines %d-%d of %s", d.name, ranges[i].Start, ranges[i].End, p)
			if st, msg := d.failure(r.out, what); st != "" {
				res.fail(st, msg)
				ok = false
				break
			}
			if d.isFindings(r.out.code) {
				// The file cannot be formatted: its errors are the answer.
				out := &r.out.stderr
				if d.cfg.Stream == "stdout" {
					out = &r.out.stdout
				}
				ds := d.diagnostics(d.parse(out.buf.Bytes()), r.site, map[string]*text.Doc{p: cur}, map[string]bool{p: true})
				if len(ds) == 0 {
					res.fail(engine.StatusCrashed, fmt.Sprintf("%s exited with code %d and no error could be parsed from its output%s", what, r.out.code, stderrTail(r.out)))
				}
				res.Diagnostics = append(res.Diagnostics, ds...)
				res.Formatted = append(res.Formatted, engine.Formatted{Path: p, How: engine.FormatLeft, Reason: fmt.Sprintf("%s could not format it (see its diagnostics)", d.name)})
				ok = false
				break
			}
			doc, err := formatted(r.out, cur)
			if err != nil {
				res.fail(engine.StatusCrashed, fmt.Sprintf("%s: %v", what, err))
				ok = false
				break
			}
			cur = text.RestoreEOL(cur, doc.LFContent())
		}
		if !ok {
			continue
		}
		if !cur.Equal(req.All[p]) {
			res.Edits[p] = cur
		}
		res.Formatted = append(res.Formatted, engine.Formatted{Path: p, How: engine.FormatRange})
	}
	return res.result()
}

// rangeArgs fills in range_args for lines r of doc.
func rangeArgs(args []string, doc *text.Doc, r engine.LineRange) []string {
	s := doc.String()
	bom := len(s) - len(doc.Content())
	start := bom + doc.LineOffset(r.Start-1)
	end := bom + doc.LineOffset(r.End)
	end -= len(doc.Line(r.End - 1).EOL)
	rep := strings.NewReplacer(
		"{start_line}", strconv.Itoa(r.Start), "{end_line}", strconv.Itoa(r.End),
		"{start_utf16}", strconv.Itoa(utf16Len(s[:start])), "{end_utf16}", strconv.Itoa(utf16Len(s[:end])),
	)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = rep.Replace(a)
	}
	return out
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += utf16.RuneLen(r)
	}
	return n
}

var (
	_ capabilities.RangeFormatter = (*Driver)(nil)
	_ capabilities.Canonical      = (*Driver)(nil)
)
