// Package configs holds devbroker's per-language toolchain configuration:
// the embedded defaults (defaults.toml), the loader that merges a
// project's own .devbroker.toml over them, and the schema, which is the
// Go types in config.go. Their doc comments are the user documentation:
// docs/config.md is generated from them (go generate ./configs), and a
// test fails when it drifts.
//
// The principal types are [Config], [Language] and [Driver]; [LoadProject] reads
// a project's configuration, and every problem it finds is an [*Error]
// that names the file, the line and column, and the key.
//
// # Merging
//
// A configuration is merged from up to three files, each over the one
// before: the embedded defaults; the user's own configuration,
// $XDG_CONFIG_HOME/devbroker/config.toml (~/.config/devbroker/config.toml
// when XDG_CONFIG_HOME is unset or not an absolute path), which applies to
// every root; and the project's .devbroker.toml at the root. The user's
// file is the user's own, outside any repository, so it applies without
// trust; the project's applies only once the user trusts the root (see
// Trust, below). Both are read when devbroker loads a root's
// configuration. Each file merges over the ones before it:
//
//   - A [languages.NAME] or [drivers.NAME] table that exists already
//     overrides the keys it writes and keeps the others: [drivers.gopls]
//     command = ["/opt/go/bin/gopls"] changes gopls's command alone. A
//     key's value is replaced whole (settings, json and smoke too), and a
//     key written with an empty value (fix_command = [], lint = [])
//     empties it. Writing errorformat drops an inherited json, and writing json an
//     inherited errorformat.
//   - A driver table whose type differs from the driver's before it
//     replaces it whole: keys it leaves out take their documented
//     defaults.
//   - A table with disabled = true removes the language or driver,
//     whatever else it holds (a later file's disabled = false brings it
//     back). A removed driver is taken out of every language's lists: out
//     of each entry that names it, an alternative left with no driver is
//     dropped, and an entry left with no alternative. A list left empty
//     is a list with nothing configured (see [Language]).
//   - Each key of [limits] and of [mcp] overrides the key before it alone.
//   - Names the files before do not have are added.
//   - A file that sets inherit_defaults = false is the whole
//     configuration: the files before it are not loaded under it.
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
//	.devbroker.toml:12:11: drivers.shellcheck.timeout: not a duration like "30s" or "2m": "30"
//	.devbroker.toml:4:23: languages.shell.lint[1]: driver "shfmt" is not defined under [drivers]; defined: gofumpt, shellcheck, staticcheck
//
// In a root you trust, such a problem stops every command (exit 2): a
// configuration you trusted must apply as written. In a root you have not
// trusted, the project's file would not apply anyway: the problem is a
// warning that names the file and the error, and the command runs on the
// embedded defaults and your own configuration. devbroker trust refuses a
// file that does not load. Every command in a root whose project file is
// ignored says so once on stderr, with what the file would run and how to
// trust it.
//
// Keys left unset take the defaults their documentation gives; the loader
// fills them in, so consumers see them.
//
// # Trust
//
// A repository's .devbroker.toml can name programs to run, and can also
// weaken the verdict (an emptied check list answers ok for a file that
// does not compile), and opening a repository must do neither: until you
// trust the root, none of its .devbroker.toml applies (not one key of a
// table), and the embedded defaults and your own configuration serve. This is the rule of VS Code's workspace trust
// (restricted mode until you trust the folder), direnv's allow and mise's
// trust (a file does nothing until you approve it, and an edited file
// needs approving again). Once you trust the root, all of the file
// applies.
//
// Some default drivers run code the repository provides, whatever their
// command (runs_repository_code = true): prettier (prettier.config.js,
// .prettierrc.js, plugins), eslint (eslint.config.js),
// typescript-language-server (the project's node_modules/typescript and
// the tsserver plugins its tsconfig.json names), cargo clippy (build.rs,
// procedural macros, .cargo/config.toml aliases, even for cargo clippy
// --version) and rust-analyzer (the build scripts and procedural macros
// it builds with cargo), go-test, pytest and vitest (they run the
// repository's tests). A driver of type junit (any test runner, see Test
// runners) always runs the repository's code, whether the defaults, your
// configuration or the project's names it. In a
// root you have not trusted, with a
// .devbroker.toml or without, they are untrusted: neither probed nor run,
// and their files are reported unchecked, as for a missing driver. The
// other defaults read configuration files but run none of the
// repository's code: go vet, go build and gopls (the go command does not
// run repository code when it builds; cgo flags are allow-listed),
// rustfmt, ruff, pyright, shellcheck, shfmt, yamllint, clang-format and
// clangd (it reads compile_commands.json's flags but runs no compiler and
// loads no plugin).
//
// Until you trust the root, the probe says that the project file is not
// trusted and none of it applies, lists every command its drivers would
// run (command, fix_command, version_command) and says how to trust it;
// the drivers that run the repository's code are listed as untrusted,
// each with the command it would run.
//
// devbroker trust [DIR] trusts DIR as it is: it prints the root's real
// path (symbolic links resolved), the file's SHA-256 and every command the
// file's drivers will run, and records the path and hash in the user's
// trust list, $XDG_STATE_HOME/devbroker/trust.json (by default
// ~/.local/state/devbroker/trust.json, mode 0600, written atomically). A
// root without a .devbroker.toml can be trusted too (for the drivers that
// run the repository's code): the list records that it had none, and
// creating the file untrusts the root again. Any edit of the file changes
// its hash and untrusts the root until you trust it again; devbroker
// untrust [DIR] forgets the root. A trust list that cannot be read trusts
// nothing, and the error names the file and says to remove it and trust
// your roots again; a trust list inside the root itself is not used.
//
// For CI, --trust on probe, run, format, lint, check and serve trusts the
// root as it is when the command starts, for that invocation only, and
// writes nothing.
//
// No tool of the MCP or editor surfaces writes the trust list. An agent
// that writes .devbroker.toml changes its hash, so what it wrote is
// untrusted: the probe tool reports that none of the file applies, under
// serve --trust too, until you review the file and run devbroker trust.
//
// The project file must be a file inside the root: a .devbroker.toml that
// is a symbolic link leading out of the root is refused, and what it
// points to is not read.
//
// Trust covers the content of .devbroker.toml, not the programs and
// scripts it names: a trusted file that runs ./scripts/lint.sh runs
// whatever that script holds when it runs. Review what the commands run
// before you trust the root, as you would a Makefile.
//
// # Test runners
//
// The test kind has a driver for Go (go-test), pytest and vitest, each of
// which chooses the tests a change affects. Any other runner is a driver
// of type junit: its command, an argv list, writes a JUnit XML report to
// {report}, which devbroker replaces (alone or inside an argument, as in
// --junitxml={report}) by a path in the run's private directory. The
// command runs the project's whole suite, in a private copy of the root
// holding the workspace's unwritten content, in its own process group,
// killed whole when the driver's timeout (which bounds the whole run)
// passes; what it writes stays in the copy. Each failed or errored test
// case is an error at its file (the case's file attribute) and line (the
// last FILE:LINE of its failure's text in that file, else the case's line
// attribute); a case whose report names no file of the project is placed
// at the first file of the request, and says so. A report that is
// missing, is not JUnit XML, holds no test case or only skipped ones
// makes the answer unchecked, saying why. The probe finds the command's
// program and runs nothing. A junit driver always runs the repository's
// code: only in a root you trust. docs/verdicts.md has an example.
//
// A root that holds your home directory (--root ~, or a dev container
// whose home is the workspace) holds configuration files of your own
// tools, which anything that edits the root can write: your devbroker
// configuration ($XDG_CONFIG_HOME/devbroker/config.toml), the go command's
// env file (go env GOENV: GOFLAGS=-toolexec=PROGRAM there would run
// PROGRAM), npm's .npmrc and pip's pip.conf. Inside the root they are the
// project's: until you trust the root, your devbroker file does not apply
// and the others are made inert for every tool devbroker starts (GOENV=off,
// NPM_CONFIG_USERCONFIG and PIP_CONFIG_FILE set to the null device), even
// before they exist (one written while a server runs is never read), and
// the probe names those that exist; their content is part of what you
// trust, so an edit of
// any of them untrusts the root. A user configuration that cannot be read
// (an unreadable home) is skipped with a warning, and the defaults serve.
package configs

//go:generate go run ./internal/gendoc -o ../docs/config.md
