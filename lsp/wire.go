package lsp

// This file defines the wire types devbroker sends and reads. Most come
// from go.lsp.dev/protocol, which models LSP 3.16; the types here are
// hand-written where that package does not fit:
//
//   - LSP 3.17 pull diagnostics (textDocument/diagnostic), which it lacks,
//     and the registrations that enable them after initialize;
//   - a content change without a range (its Range is not a pointer, so a
//     "full text" change would go out as an insertion at 0:0);
//   - diagnostics and positions decoded leniently (int, not uint32, so a
//     server's garbage does not fail the whole message, and the diagnostic's
//     data kept verbatim, because gopls needs it back in codeAction);
//   - the workspace/applyEdit reply, which must be {applied: true}.

import (
	"encoding/json"
	"strconv"
)

// Position is a 0-based line and a column in UTF-16 code units, as LSP
// counts them by default.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open range of positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// TextEdit replaces Range with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// Diagnostic is a diagnostic as a server sends it.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"` // 1 error, 2 warning, 3 information, 4 hint
	Code     json.RawMessage `json:"code,omitempty"`     // int or string
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
	Tags     []int           `json:"tags,omitempty"`
	// Related are the places the diagnostic involves besides its own
	// (relatedInformation: the other declaration of a name declared
	// twice), read leniently: see [Related].
	Related Related `json:"relatedInformation,omitempty"`
	// Data is kept verbatim: servers (gopls) read it back in codeAction.
	Data json.RawMessage `json:"data,omitempty"`
}

// RelatedInformation is one related place of a diagnostic.
type RelatedInformation struct {
	Location RelatedLocation `json:"location"`
	Message  string          `json:"message"`
}

// RelatedLocation is LSP's Location, as a related place carries it: a
// URI (not a path, so that it goes back to the server as it came) and a
// range.
type RelatedLocation struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Related is a diagnostic's related information. It decodes leniently:
// an entry that cannot be read (no location, a URI that is not a string,
// a range that is not numbers) is left out, and anything but a list is
// no related information, so that one bad entry does not lose the whole
// diagnostics message.
type Related []RelatedInformation

// UnmarshalJSON reads a list of related information, leaving out the
// entries that cannot be read.
func (r *Related) UnmarshalJSON(b []byte) error {
	*r = nil
	var list []json.RawMessage
	if json.Unmarshal(b, &list) != nil {
		return nil
	}
	for _, raw := range list {
		var ri struct {
			Location *RelatedLocation `json:"location"`
			Message  string           `json:"message"`
		}
		if json.Unmarshal(raw, &ri) != nil || ri.Location == nil || ri.Location.URI == "" {
			continue
		}
		*r = append(*r, RelatedInformation{Location: *ri.Location, Message: ri.Message})
	}
	return nil
}

// CodeString is the diagnostic's code as text ("" when it has none).
func (d *Diagnostic) CodeString() string {
	if len(d.Code) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(d.Code, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(d.Code, &n) == nil {
		return n.String()
	}
	return ""
}

// Severities of a Diagnostic.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

// contentChange without a range replaces the whole document.
type contentChange struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                 `json:"contentChanges"`
}

type didCloseParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// progressToken is an int or a string; it is kept as its JSON text.
type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value struct {
		Kind       string   `json:"kind"` // begin, report, end
		Title      string   `json:"title,omitempty"`
		Message    string   `json:"message,omitempty"`
		Percentage *float64 `json:"percentage,omitempty"`
	} `json:"value"`
}

type configurationParams struct {
	Items []struct {
		ScopeURI string `json:"scopeUri,omitempty"`
		Section  string `json:"section,omitempty"`
	} `json:"items"`
}

type applyEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  WorkspaceEdit `json:"edit"`
}

type applyEditResult struct {
	Applied bool `json:"applied"`
}

// WorkspaceEdit is the part of an LSP workspace edit devbroker applies:
// text edits by document, in either of the two forms servers use.
type WorkspaceEdit struct {
	Changes         map[string][]TextEdit `json:"changes,omitempty"`
	DocumentChanges []documentChange      `json:"documentChanges,omitempty"`
}

// documentChange is a TextDocumentEdit, or a resource operation (create,
// rename or delete a file), which carries "kind". Edits leaves resource
// operations out; [WorkspaceEdit.Ops] has them all, in order.
type documentChange struct {
	Kind         string                          `json:"kind,omitempty"`
	TextDocument versionedTextDocumentIdentifier `json:"textDocument"`
	Edits        []TextEdit                      `json:"edits"`
	// URI is a create's or a delete's file; OldURI and NewURI a rename's.
	URI     string       `json:"uri,omitempty"`
	OldURI  string       `json:"oldUri,omitempty"`
	NewURI  string       `json:"newUri,omitempty"`
	Options *fileOptions `json:"options,omitempty"`
}

// fileOptions are a resource operation's options.
type fileOptions struct {
	Overwrite         bool `json:"overwrite,omitempty"`
	IgnoreIfExists    bool `json:"ignoreIfExists,omitempty"`
	Recursive         bool `json:"recursive,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
}

// Edits returns the text edits by document URI, and whether the edit held
// resource operations that were left out.
func (w *WorkspaceEdit) Edits() (map[string][]TextEdit, bool) {
	out := map[string][]TextEdit{}
	for u, es := range w.Changes {
		out[u] = append(out[u], es...)
	}
	skipped := false
	for _, dc := range w.DocumentChanges {
		if dc.Kind != "" {
			skipped = true
			continue
		}
		out[dc.TextDocument.URI] = append(out[dc.TextDocument.URI], dc.Edits...)
	}
	return out, skipped
}

// Command is an LSP command.
type Command struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

// CodeAction is a code action; a server may also answer with a bare
// Command, which decodes into Command with Title set.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind,omitempty"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
	Command     *Command       `json:"command,omitempty"`
	// Disabled is set when the action cannot be applied.
	Disabled *struct {
		Reason string `json:"reason"`
	} `json:"disabled,omitempty"`
	// Data goes back verbatim in codeAction/resolve, as does the whole
	// action (raw: the JSON the server sent).
	Data json.RawMessage `json:"data,omitempty"`
	raw  json.RawMessage
}

// UnmarshalJSON accepts a CodeAction or a bare Command.
func (a *CodeAction) UnmarshalJSON(b []byte) error {
	type plain CodeAction
	var probe struct {
		Command json.RawMessage `json:"command"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if len(probe.Command) > 0 && probe.Command[0] == '"' {
		var c Command
		if err := json.Unmarshal(b, &c); err != nil {
			return err
		}
		*a = CodeAction{Title: c.Title, Command: &c}
		return nil
	}
	if err := json.Unmarshal(b, (*plain)(a)); err != nil {
		return err
	}
	a.raw = append(json.RawMessage(nil), b...)
	return nil
}

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
		Only        []string     `json:"only,omitempty"`
	} `json:"context"`
}

type formattingParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Options      struct {
		TabSize      int  `json:"tabSize"`
		InsertSpaces bool `json:"insertSpaces"`
	} `json:"options"`
}

type rangeFormattingParams struct {
	formattingParams
	Range Range `json:"range"`
}

type executeCommandParams struct {
	Command   string `json:"command"`
	Arguments []any  `json:"arguments,omitempty"`
	// WorkDoneToken, when set, is the token of the command's own
	// progress (see ownToken).
	WorkDoneToken string `json:"workDoneToken,omitempty"`
}

// documentDiagnosticParams is LSP 3.17's textDocument/diagnostic request.
type documentDiagnosticParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Identifier   string                 `json:"identifier,omitempty"`
}

// documentDiagnosticReport is the answer: kind "full" with items, or
// "unchanged" (never asked for here: no previous result id is sent).
type documentDiagnosticReport struct {
	Kind             string                              `json:"kind"`
	Items            []Diagnostic                        `json:"items"`
	RelatedDocuments map[string]documentDiagnosticReport `json:"relatedDocuments,omitempty"`
}

// registrationParams is client/registerCapability's request: features a
// server adds after initialize (pyright registers pull diagnostics so).
type registrationParams struct {
	Registrations []registration `json:"registrations"`
}

// unregistrationParams is client/unregisterCapability's request; the
// field's misspelling is LSP's own.
type unregistrationParams struct {
	Unregistrations []registration `json:"unregisterations"`
}

type registration struct {
	ID              string          `json:"id"`
	Method          string          `json:"method"`
	RegisterOptions json.RawMessage `json:"registerOptions,omitempty"`
}

// methodDidChangeWatchedFiles is the notification of changes on disk.
const methodDidChangeWatchedFiles = "workspace/didChangeWatchedFiles"

// watchedFilesOptions is a didChangeWatchedFiles registration's options:
// each watcher's glob is a string or a RelativePattern, its kind a
// WatchKind bit set (default all three).
type watchedFilesOptions struct {
	Watchers []struct {
		GlobPattern json.RawMessage `json:"globPattern"`
		Kind        *int            `json:"kind,omitempty"`
	} `json:"watchers"`
}

// fileWatchers decodes a registration's watchers; a glob it cannot read
// is left out.
func fileWatchers(raw json.RawMessage) []fileWatcher {
	var o watchedFilesOptions
	_ = json.Unmarshal(raw, &o)
	out := []fileWatcher{}
	for _, w := range o.Watchers {
		fw := fileWatcher{kind: watchCreate | watchChange | watchDelete}
		if w.Kind != nil {
			fw.kind = *w.Kind
		}
		var rel struct {
			BaseURI json.RawMessage `json:"baseUri"`
			Pattern string          `json:"pattern"`
		}
		if json.Unmarshal(w.GlobPattern, &fw.pattern) != nil {
			if json.Unmarshal(w.GlobPattern, &rel) != nil || rel.Pattern == "" {
				continue
			}
			// baseUri is a URI or a WorkspaceFolder.
			var u string
			var folder struct {
				URI string `json:"uri"`
			}
			if json.Unmarshal(rel.BaseURI, &u) != nil && json.Unmarshal(rel.BaseURI, &folder) == nil {
				u = folder.URI
			}
			if fw.base = Path(u); fw.base == "" {
				continue
			}
			fw.pattern = rel.Pattern
		}
		out = append(out, fw)
	}
	return out
}

// didChangeWatchedFilesParams is workspace/didChangeWatchedFiles's
// notification.
type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}

// fileEvent is one file's change: created 1, changed 2, deleted 3.
type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

// serverCapabilities is the part of the initialize result devbroker reads.
type serverCapabilities struct {
	TextDocumentSync   json.RawMessage `json:"textDocumentSync,omitempty"`
	DocumentFormatting json.RawMessage `json:"documentFormattingProvider,omitempty"`
	// DocumentRangeFormatting offers textDocument/rangeFormatting.
	DocumentRangeFormatting json.RawMessage `json:"documentRangeFormattingProvider,omitempty"`
	CodeActionProvider      json.RawMessage `json:"codeActionProvider,omitempty"`
	DiagnosticProvider      json.RawMessage `json:"diagnosticProvider,omitempty"`
	// The requests that answer about code: true or an options object
	// when offered (see navcaps.go).
	DefinitionProvider      json.RawMessage `json:"definitionProvider,omitempty"`
	ReferencesProvider      json.RawMessage `json:"referencesProvider,omitempty"`
	HoverProvider           json.RawMessage `json:"hoverProvider,omitempty"`
	DocumentSymbolProvider  json.RawMessage `json:"documentSymbolProvider,omitempty"`
	WorkspaceSymbolProvider json.RawMessage `json:"workspaceSymbolProvider,omitempty"`
	RenameProvider          json.RawMessage `json:"renameProvider,omitempty"`
	ExecuteCommandProvider  *struct {
		Commands []string `json:"commands"`
	} `json:"executeCommandProvider,omitempty"`
}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   *struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	} `json:"serverInfo,omitempty"`
}

// provided reports whether a capability value advertises the feature: true
// or an options object, not absent, null or false.
func provided(raw json.RawMessage) bool {
	s := string(raw)
	return s != "" && s != "null" && s != "false"
}

// tokenKey turns a progress token into a map key.
func tokenKey(raw json.RawMessage) string {
	if s, err := strconv.Unquote(string(raw)); err == nil {
		return "s:" + s
	}
	return "n:" + string(raw)
}
