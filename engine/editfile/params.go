package editfile

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// Params are edit_file's parameters, exactly those of seed 004. Pointer
// fields distinguish "not given" from a zero value.
type Params struct {
	// Command is view | str_replace | insert | patch | replace_symbol | undo_edit.
	Command string `json:"command"`
	// FilePath is the absolute path to the file.
	FilePath string `json:"file_path"`
	// ViewRange is view's [start, end] 1-based inclusive line range; end -1 reads to the end of the file.
	ViewRange []int `json:"view_range,omitempty"`
	// Anchor is view's unique string to show the region around.
	Anchor *string `json:"anchor,omitempty"`
	// Symbol is a function/type/class name for view and replace_symbol.
	Symbol *string `json:"symbol,omitempty"`
	// SymbolKind narrows which declaration keywords count, e.g. "function" or "type".
	SymbolKind string `json:"symbol_kind,omitempty"`
	// ContextBefore is view's lines of context before an anchor match (default 20).
	ContextBefore *int `json:"context_before,omitempty"`
	// ContextAfter is view's lines of context after an anchor match (default 20).
	ContextAfter *int `json:"context_after,omitempty"`
	// OldStr is str_replace's exact current text (byte-for-byte, unique).
	OldStr *string `json:"old_str,omitempty"`
	// NewStr is the replacement (str_replace, replace_symbol) or the text to insert (insert).
	NewStr *string `json:"new_str,omitempty"`
	// Occurrence is str_replace's 1-based index of the match to replace when old_str is not unique.
	Occurrence *int `json:"occurrence,omitempty"`
	// ReplaceAll makes str_replace replace every occurrence of old_str
	// (non-overlapping, left to right), not exactly one.
	ReplaceAll bool `json:"replace_all,omitempty"`
	// StartAnchor starts str_replace's anchored range (inclusive); must be unique.
	StartAnchor *string `json:"start_anchor,omitempty"`
	// EndAnchor ends str_replace's anchored range (inclusive): its first occurrence after start_anchor.
	EndAnchor *string `json:"end_anchor,omitempty"`
	// InsertLine is insert's line to insert after (0 = top of file).
	InsertLine *int `json:"insert_line,omitempty"`
	// InsertBeforeAnchor inserts directly before this unique string's line.
	InsertBeforeAnchor *string `json:"insert_before_anchor,omitempty"`
	// InsertAfterAnchor inserts directly after this unique string's line.
	InsertAfterAnchor *string `json:"insert_after_anchor,omitempty"`
	// Patch is a unified diff with one or more @@ hunks.
	Patch *string `json:"patch,omitempty"`
	// Revision is the file's revision from the caller's last view or edit; a mismatch rejects the edit.
	Revision string `json:"revision,omitempty"`
	// DryRun previews the result (diff and would-be revision) without writing.
	DryRun bool `json:"dry_run,omitempty"`
	// ValidateSyntax rejects a result that fails a syntax check.
	ValidateSyntax bool `json:"validate_syntax,omitempty"`
	// Force changes a file that has no write permission for its owner
	// (it keeps its mode).
	Force bool `json:"force,omitempty"`
}

// Commands lists edit_file's commands.
var Commands = []string{"view", "str_replace", "insert", "patch", "replace_symbol", "undo_edit"}

// paramsJSON decodes a tool's parameters strictly: an unknown parameter
// is an error that lists the valid ones, and a wrong type names the
// parameter.
var paramsJSON = jsonarg.Decoder{Noun: "parameter", ListValid: true, WrongType: true}

// decodeStrict decodes data into v with [paramsJSON]; its errors are
// bad_argument errors that start with the tool's name.
func decodeStrict(data []byte, v any, tool string) error {
	if err := paramsJSON.Decode(data, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "%s", tool)
	}
	return nil
}

// allowed lists, per command, the parameters it takes besides command,
// file_path, revision, dry_run, validate_syntax and force.
var allowed = map[string][]string{
	"view":           {"view_range", "anchor", "symbol", "symbol_kind", "context_before", "context_after"},
	"str_replace":    {"old_str", "new_str", "occurrence", "replace_all", "start_anchor", "end_anchor"},
	"insert":         {"new_str", "insert_line", "insert_before_anchor", "insert_after_anchor"},
	"patch":          {"patch"},
	"replace_symbol": {"symbol", "symbol_kind", "new_str"},
	"undo_edit":      {"force"}, // not nil: Do tells known commands by a non-nil entry
}

// checkApplicable refuses parameters given to a command that does not use
// them: silently ignoring one would hide a mistake.
func checkApplicable(raw map[string]json.RawMessage, command string) error {
	ok := map[string]bool{"command": true, "file_path": true}
	if command != "view" && command != "undo_edit" {
		ok["revision"], ok["dry_run"], ok["validate_syntax"], ok["force"] = true, true, true, true
	}
	for _, p := range allowed[command] {
		ok[p] = true
	}
	var bad []string
	for k := range raw {
		if !ok[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	var use []string
	for k := range ok {
		use = append(use, k)
	}
	sort.Strings(use)
	return fault.New(fault.BadArgument, "edit_file %s does not take %s; its parameters are: %s", command, strings.Join(bad, ", "), strings.Join(use, ", "))
}

// parseParams decodes and checks edit_file's parameters.
func parseParams(data []byte) (*Params, error) {
	var p Params
	if err := decodeStrict(data, &p, "edit_file"); err != nil {
		return nil, err
	}
	if p.Command == "" {
		return nil, fault.New(fault.BadArgument, "edit_file: command is required: one of %s", strings.Join(Commands, ", "))
	}
	if _, ok := allowed[p.Command]; !ok {
		return nil, fault.New(fault.BadArgument, "edit_file: unknown command %q: use one of %s", p.Command, strings.Join(Commands, ", "))
	}
	if p.FilePath == "" {
		return nil, fault.New(fault.BadArgument, "edit_file: file_path is required (an absolute path)")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "edit_file")
	}
	if err := checkApplicable(raw, p.Command); err != nil {
		return nil, err
	}
	return &p, nil
}
