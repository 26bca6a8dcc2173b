package wire

// This file renders an answer as text for a model or a person: the MCP
// tools' text content and the command line's output are this text.

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the answer as lines: "path:line:column: text" for each
// location, "path:line:column: kind name  detail" for each symbol, the
// hover text as the server gave it, "id  title (kind)" for each code
// action, a line saying what was left out, applied, or not found, and
// for a search that found something, how many files it searched.
func (a *Answer) WriteText(w io.Writer) {
	for _, l := range a.Locations {
		fmt.Fprintf(w, "%s: %s\n", l.At, l.Text)
	}
	for _, s := range a.Symbols {
		line := fmt.Sprintf("%s: %s %s", s.At, s.Kind, s.Name)
		if s.Detail != "" {
			line += "  " + s.Detail
		}
		if s.Container != "" {
			line += "  (in " + s.Container + ")"
		}
		fmt.Fprintln(w, line)
	}
	if a.Hover != "" {
		fmt.Fprintln(w, strings.TrimRight(a.Hover, "\n"))
	}
	for _, c := range a.Actions {
		line := c.ID + "  " + c.Title
		if c.Kind != "" {
			line += " (" + c.Kind + ")"
		}
		if c.Preferred {
			line += " [preferred]"
		}
		if c.Disabled != "" {
			line += " [cannot apply now: " + c.Disabled + "]"
		}
		fmt.Fprintln(w, line)
	}
	if a.Omitted > 0 {
		fmt.Fprintf(w, "... and %d more not listed\n", a.Omitted)
	}
	if a.Truncated {
		fmt.Fprintf(w, "the language server stopped at %d; more may match: narrow the query\n", a.ServerLimit)
	}
	if note := a.note(); note != "" {
		fmt.Fprintln(w, note)
	} else if a.Files > 0 {
		fmt.Fprintf(w, "(%s searched)\n", files(a.Files))
	}
	for _, s := range a.Skipped {
		fmt.Fprintf(w, "not searched: %s: %s\n", s.Path, s.Reason)
	}
	if a.SkippedMore > 0 {
		fmt.Fprintf(w, "... and %s more not searched\n", files(a.SkippedMore))
	}
}

// files is "1 file" or "n files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

// note says what an answer with nothing listed means.
func (a *Answer) note() string {
	switch {
	case a.Applied != "":
		return fmt.Sprintf("applied %q to the workspace (written only by a write)", a.Applied)
	case a.Name == "rename":
		return "renamed in the workspace (written only by a write)"
	case len(a.Locations)+len(a.Symbols)+len(a.Actions) > 0 || a.Hover != "":
		return ""
	case a.Name == "code_actions":
		return "no code actions are offered there"
	case a.Name == "hover":
		return "the language server has nothing to show there"
	case a.Name == "search":
		return "search: nothing found in " + files(a.Files)
	}
	return a.Name + ": nothing found"
}
