package lsp

// This file defines what devbroker knows of gopls beyond finding it
// (findserver.go): its install hint, and the inputs it acts on and how it
// is told to reload ([GoplsInputs]).

import (
	"maps"
	"os"
	"path/filepath"
)

// GoplsInstall is the install hint for gopls when the configuration gives
// none.
const GoplsInstall = "go install golang.org/x/tools/gopls@latest"

// goplsReload is the file whose reported change makes gopls load its
// workspace again: its workspaceFiles setting matches it (see
// GoplsInputs). It is never created.
var goplsReload = filepath.Join(os.TempDir(), "devbroker-reload-inputs")

// goplsReloadGlobs match goplsReload's path in gopls's workspaceFiles,
// which gopls matches against the absolute path: slash-separated, and as
// one segment where the path has no slash (Windows).
var goplsReloadGlobs = []string{"**/devbroker-reload-inputs", "*devbroker-reload-inputs"}

// goplsActsOn are the files gopls acts on when told they changed on disk:
// Go files (their package is loaded again when its imports or files
// change), the module files, and vendor/modules.txt (a reload). A change
// to any other input of the go command (an embedded file, a cgo source
// or header, an assembly file) is only a change of content to gopls,
// which does not run go list or cgo again for it: it needs a reload.
var goplsActsOn = []string{"**/*.go", "**/go.mod", "**/go.sum", "**/go.work", "**/go.work.sum", "**/vendor/modules.txt"}

// GoplsInputs returns the inputs of a gopls server ([Inputs]: the go
// command's inputs outside the root; every change it acts on sent, a
// reload for the others) and settings with its workspaceFiles extended
// so that the reload works. settings is not modified.
func GoplsInputs(settings map[string]any) (Inputs, map[string]any) {
	out := maps.Clone(settings)
	if out == nil {
		out = map[string]any{}
	}
	target := out
	if sub, ok := out["gopls"].(map[string]any); ok {
		target = maps.Clone(sub)
		out["gopls"] = target
	}
	var globs []any
	switch v := target["workspaceFiles"].(type) {
	case []any:
		globs = append(globs, v...)
	case []string:
		for _, g := range v {
			globs = append(globs, g)
		}
	}
	for _, g := range goplsReloadGlobs {
		globs = append(globs, g)
	}
	target["workspaceFiles"] = globs
	return Inputs{Go: true, ActsOn: goplsActsOn, Reload: goplsReload, MtimeCache: true}, out
}
