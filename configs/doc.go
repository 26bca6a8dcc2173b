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
package configs

//go:generate go run ./internal/gendoc -o ../docs/config.md
