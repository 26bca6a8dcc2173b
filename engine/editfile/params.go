package editfile

import (
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// Params are edit_file's parameters, exactly those the edit_file tool documents (docs/mcp.md). Pointer
// fields distinguish "not given" from a zero value. The tags are each
// parameter's one description (see [ParamsSpec]): which commands take a
// parameter is said once, in the spec's table of commands, and heads its
// description ("view/replace_symbol: ...").
type Params struct {
	Command            string  `json:"command" jsonschema:"the command to run"`
	FilePath           string  `json:"file_path" jsonschema:"Absolute path to the file"`
	ViewRange          []int   `json:"view_range,omitempty" jsonschema:"[start, end] 1-based inclusive line range; end -1 reads to the end of the file"`
	Anchor             *string `json:"anchor,omitempty" jsonschema:"show the region around this unique string instead of a line range"`
	Symbol             *string `json:"symbol,omitempty" jsonschema:"a function/type/class/etc. name. Its extent is found lexically (brace depth or indentation) - must be declared exactly once in the file."`
	SymbolKind         string  `json:"symbol_kind,omitempty" jsonschema:"narrow which declaration keywords count as a match, e.g. 'function' or 'type' - only useful when a function and a type share a name"`
	ContextBefore      *int    `json:"context_before,omitempty" jsonschema:"lines of context before an anchor match (default 20)"`
	ContextAfter       *int    `json:"context_after,omitempty" jsonschema:"lines of context after an anchor match (default 20)"`
	OldStr             *string `json:"old_str,omitempty" jsonschema:"the exact current text to replace (byte-for-byte, unique in the file)"`
	NewStr             *string `json:"new_str,omitempty" jsonschema:"the text that replaces old_str or the anchored range; the text to insert; the symbol's whole new declaration"`
	Occurrence         *int    `json:"occurrence,omitempty" jsonschema:"1-based index of which match to replace when old_str is not unique (see the error's line list)"`
	ReplaceAll         bool    `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_str (non-overlapping, left to right), not exactly one; the result's replaced counts them. Not with occurrence or the anchors."`
	StartAnchor        *string `json:"start_anchor,omitempty" jsonschema:"replace from start_anchor through end_anchor (inclusive) instead of passing the whole block as old_str. Must be unique in the file."`
	EndAnchor          *string `json:"end_anchor,omitempty" jsonschema:"the end of the start_anchor/end_anchor range. Required with start_anchor."`
	InsertLine         *int    `json:"insert_line,omitempty" jsonschema:"line number to insert after (0 = top of file)"`
	InsertBeforeAnchor *string `json:"insert_before_anchor,omitempty" jsonschema:"insert new_str directly before this unique string's line, instead of passing insert_line"`
	InsertAfterAnchor  *string `json:"insert_after_anchor,omitempty" jsonschema:"insert new_str directly after this unique string's line, instead of passing insert_line"`
	Patch              *string `json:"patch,omitempty" jsonschema:"a unified diff with one or more @@ hunks. Each hunk's context and removed lines must match the file byte-for-byte and appear exactly once."`
	Revision           string  `json:"revision,omitempty" jsonschema:"the file's revision from your last view/edit of it. If the file changed since then, the edit is rejected instead of silently overwriting the change."`
	DryRun             bool    `json:"dry_run,omitempty" jsonschema:"preview the result (diff + would-be revision) without writing the file"`
	ValidateSyntax     bool    `json:"validate_syntax,omitempty" jsonschema:"reject the edit (nothing is written) if the resulting file fails a syntax check. Real parsing for .go/.json/.yaml/.yml; a balanced-delimiter check for other common source files; a no-op for unrecognized file types."`
	Force              bool    `json:"force,omitempty" jsonschema:"change the file even though its owner has no write permission (mode such as 0444); the file keeps its mode. Without it such a file is refused, naming its mode."`
}

// changes are the parameters every command that changes text takes.
var changes = []string{"revision", "dry_run", "validate_syntax", "force"}

// paramsSpec is edit_file's parameters and, per command, the ones it
// takes besides command and file_path.
var paramsSpec = jsonarg.For[Params]().WithLen("view_range", 2).Select("command",
	jsonarg.Variant{Value: "view", Takes: []string{"view_range", "anchor", "symbol", "symbol_kind", "context_before", "context_after"}},
	jsonarg.Variant{Value: "str_replace", Takes: append([]string{"old_str", "new_str", "occurrence", "replace_all", "start_anchor", "end_anchor"}, changes...)},
	jsonarg.Variant{Value: "insert", Takes: append([]string{"new_str", "insert_line", "insert_before_anchor", "insert_after_anchor"}, changes...)},
	jsonarg.Variant{Value: "patch", Takes: append([]string{"patch"}, changes...)},
	jsonarg.Variant{Value: "replace_symbol", Takes: append([]string{"symbol", "symbol_kind", "new_str"}, changes...)},
	jsonarg.Variant{Value: "undo_edit", Takes: []string{"force"}},
)

// Commands lists edit_file's commands.
var Commands = paramsSpec.Arg("command").Enum

// ParamsSpec describes edit_file's parameters: their one description,
// from which the MCP tool's input schema is made and against which every
// call is decoded (the command's table says which parameters each command
// takes). It is shared: do not change it.
func ParamsSpec() *jsonarg.Spec { return paramsSpec }

// ReadFileSpec describes read_file's parameters. It is shared: do not
// change it.
func ReadFileSpec() *jsonarg.Spec { return readFileSpec }

// WriteFileSpec describes write_file's parameters. It is shared: do not
// change it.
func WriteFileSpec() *jsonarg.Spec { return writeFileSpec }

var (
	readFileSpec  = jsonarg.For[ReadFileParams]()
	writeFileSpec = jsonarg.For[WriteFileParams]()
)

// decode decodes data into v through spec's strict front end (an unknown
// parameter is refused with the list of valid ones, a wrong type or a
// missing parameter names it, a parameter the command does not take is
// refused with the ones it does); its errors are bad_argument errors that
// start with the tool's name.
func decode(spec *jsonarg.Spec, data []byte, v any, tool string) error {
	if err := spec.Decode(data, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "%s", tool)
	}
	return nil
}

// check checks typed parameters made in Go against spec, as decode does.
func check(spec *jsonarg.Spec, v any, tool string) error {
	if err := spec.Check(v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "%s", tool)
	}
	return nil
}

// parseParams decodes and checks edit_file's parameters.
func parseParams(data []byte) (*Params, error) {
	var p Params
	if err := decode(paramsSpec, data, &p, "edit_file"); err != nil {
		return nil, err
	}
	return &p, nil
}
