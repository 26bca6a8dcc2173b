// Package procgroup puts a child process in its own process group and kills
// the whole group, so that what the child starts (gopls runs go list, a
// linter's wrapper script runs the linter) dies with it. It starts nothing
// itself. It lives under lsp/ so that both lsp and capabilities/external,
// which may import lsp but not the other way round, share it.
package procgroup
