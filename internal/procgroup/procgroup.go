// Package procgroup puts a child process in its own process group and kills
// the whole group, so that what the child starts (gopls runs go list, a
// linter's wrapper script runs the linter) dies with it. It starts nothing
// itself. It lives under internal/, which every layer may import and which
// imports nothing of the module's, so that lsp and capabilities/external
// share it without either depending on the other.
package procgroup
