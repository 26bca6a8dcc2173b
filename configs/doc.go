// Package configs holds devbroker's per-language toolchain configuration:
// the embedded defaults (defaults.toml), the loader that merges a
// project's own .devbroker.toml over them, and the schema, which is the
// Go types in config.go. Their doc comments are the user documentation:
// docs/config.md is generated from them (go generate ./configs), and a
// test fails when it drifts.
//
// The principal types are [Config], [Language] and [Driver]; [Load] reads
// a project's configuration, and every problem it finds is an [*Error]
// that names the file, the line and column, and the key.
//
// # Merging
//
// A project's .devbroker.toml at the root is merged over the embedded
// defaults:
//
//   - A [languages.NAME] or [drivers.NAME] table replaces the default
//     table of the same name whole: keys it leaves out take their
//     documented defaults, not the values of the default table. Copy the
//     keys you keep.
//   - A table with disabled = true removes the language or driver, whatever
//     else it holds. A language that still names a removed driver is an
//     error.
//   - Each key of [limits] overrides the default of that key alone.
//   - Names the defaults do not have are added.
//
// # Validation
//
// Decoding is strict: a key the schema does not have, or a value of the
// wrong type, is an error. After the merge, the configuration is checked
// as a whole (a language naming an undefined driver, an unknown driver
// type or input, an external driver without a command, an errorformat
// pattern that does not compile, a negative limit, ...), and all the
// problems are reported together, each in the file that wrote the key.
// Removed entries are not checked beyond strict decoding. Each problem
// names the file, the line and column, and the key:
//
//	.devbroker.toml:12:1: drivers.shellcheck.timeout: not a duration like "30s" or "2m": "30"
//	.devbroker.toml:4:9: languages.shell.lint[1]: driver "shfmt" is not defined under [drivers]; defined: gofumpt, shellcheck, staticcheck
//
// Keys left unset take the defaults their documentation gives; the loader
// fills them in, so consumers see them.
//
// # Trust
//
// A repository's .devbroker.toml can name programs to run, and opening a
// repository must not run them: the part of the file that names commands
// is inert until you trust that root. This is the rule of VS Code's
// workspace trust (restricted mode until you trust the folder), direnv's
// allow and mise's trust (a file runs nothing until you approve it, and
// an edited file needs approving again). The embedded defaults always
// run.
//
// What needs trust is a project driver of type external or lsp that
// either the defaults do not have (a new driver), or that sets one of the
// keys that decide what runs to another value than the default driver of
// the same name: type, command, fix_command, version_command, dir, env,
// input, per_file, smoke and, for a language server, settings (which can
// name an interpreter or build flags). These apply without trust, because
// they run nothing new: limits; disabled = true; a language's file_types
// and its format, lint and check lists (a list entry that names a driver
// that needs trust is served only once the root is trusted); a default
// driver's doc, install, timeout, idle_timeout, language_id, output,
// stream, severity, exit_codes, errorformat and json; leaving a smoke
// test or settings out (that runs less); and drivers of the linked-in
// types gofumpt and staticcheck. A project that sets inherit_defaults =
// false is still compared with the embedded defaults.
//
// Until you trust the root, the probe lists each such driver as
// untrusted, with the command it would run and how to trust it; it is
// neither probed nor run. A driver the project overrides is untrusted,
// not replaced by the default's command (the project meant another
// command, so neither runs), and a list entry like
// "gopls | go-build + go-vet" falls back to its next alternative as for a
// missing driver; an entry nothing serves leaves the language's files
// unchecked, which the answer says.
//
// devbroker trust [DIR] trusts DIR's file: it prints the root's real path
// (symbolic links resolved), the file's SHA-256 and every command the
// file's drivers will run, and records the path and hash in the user's
// trust list, $XDG_STATE_HOME/devbroker/trust.json (by default
// ~/.local/state/devbroker/trust.json, mode 0600, written atomically).
// Any edit of the file changes its hash and untrusts the root until you
// trust it again; devbroker untrust [DIR] forgets the root. A trust list
// that cannot be read trusts nothing, and the error names the file and
// says to remove it and trust your roots again; a trust list inside the
// root itself is not used.
//
// For CI, --trust on probe, run, format, lint, check and serve trusts the
// root's file as it is when the command starts, for that invocation only,
// and writes nothing.
//
// No tool of the MCP or editor surfaces writes the trust list. An agent
// that writes .devbroker.toml changes its hash, so what it wrote is
// untrusted: the probe tool reports its drivers untrusted and runs none
// of them, under serve --trust too, until you review the file and run
// devbroker trust.
package configs

//go:generate go run ./internal/gendoc -o ../docs/config.md
