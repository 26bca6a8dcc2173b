package configs

// Config is a whole configuration: the embedded defaults with the user's
// file and a project's file merged over them.
//
// The file's top level holds four tables: [languages], [drivers],
// [limits] and [mcp].
type Config struct {
	// Languages maps a language name (go, python, shell, ...) to the files
	// it covers and the drivers that format, lint and check them.
	Languages map[string]*Language `toml:"languages"`
	// Drivers maps a driver name to its definition. Languages refer to
	// drivers by these names.
	Drivers map[string]*Driver `toml:"drivers"`
	// Limits bound what one answer holds.
	Limits Limits `toml:"limits"`
	// MCP configures the MCP server (devbroker serve --mcp).
	MCP MCP `toml:"mcp"`
	// InheritDefaults, in a project file or the user's, set to false makes
	// that file the whole configuration: the embedded defaults (and, under
	// a project file, the user's file) are not loaded under it. Default
	// true.
	InheritDefaults *bool `toml:"inherit_defaults"`
}

// Limits bound the size of answers and of a session's workspace. A project
// overrides each key on its own. Like the rest of a project's file, its
// limits apply only once the user trusts the root (a repository could
// otherwise shrink them to deny service, or raise them past what the
// machine holds); your own configuration's apply everywhere.
type Limits struct {
	// MaxDiagnostics is the most diagnostics one answer lists; the answer
	// says how many more there were. 0 means the default, 200; negative
	// is an error.
	MaxDiagnostics int `toml:"max_diagnostics"`
	// MaxFiles is the most files a session's workspace holds at once
	// (files without unwritten changes leave to make room). 0 means the
	// default: 500 for sessions and `devbroker run`, 50000 for the
	// format, lint and check commands; negative is an error.
	MaxFiles int `toml:"max_files"`
	// MaxFileBytes is the largest file a workspace acquires, and the
	// largest file edit_file, read_file and write_file read, in bytes. 0
	// means the default: 2097152 (2 MiB) for sessions, `devbroker run`
	// and `devbroker edit`, 8388608 (8 MiB) for the format, lint and
	// check commands; negative is an error.
	MaxFileBytes int64 `toml:"max_file_bytes"`
	// MaxTotalBytes is the most bytes a workspace holds, in bytes. 0 means
	// the default: 33554432 (32 MiB) for sessions and `devbroker run`,
	// 1073741824 (1 GiB) for the format, lint and check commands;
	// negative is an error.
	MaxTotalBytes int64 `toml:"max_total_bytes"`
}

// MCP configures what devbroker serve --mcp offers its clients. Each key
// overrides the key before it alone, and a project's applies only once
// the user trusts the root, like the rest of its file; a serve flag
// overrides the key.
type MCP struct {
	// Tools is the set of tools the server offers, when serve is given no
	// --tools: "default" (dev_plan, which runs every step, with edit_file,
	// check, search, discard and probe: the whole list in under 16 KB),
	// "lean" (for clients with their own tools to read, search and edit
	// files, such as Claude Code, Codex CLI and Gemini CLI: dev_plan,
	// check, the language server's tools, discard and probe) or "full"
	// (one tool per step, with edit_file, read_file and write_file, each
	// with its output schema). Default "default". docs/mcp.md lists each
	// set.
	Tools string `toml:"tools"`
}

// MCPTools are the values of [MCP.Tools], the default first.
var MCPTools = []string{"default", "lean", "full"}

// Language is one language's toolchain: which files are the language's,
// which drivers format, lint and check them, and which language servers
// answer questions about its code (intelligence). Every driver it names
// must be defined under [drivers].
//
// Each entry of format, lint and check is a slot that may name
// alternatives, tried in order: "gopls | go-build + go-vet" is served by
// gopls when the probe found it working, else by go-build and go-vet
// together (alternatives are separated by "|", the drivers that run
// together are joined by "+", and a driver name cannot contain either).
// The first alternative whose drivers all work serves the slot, and the
// answer says so: the serving driver's status message reads "served go
// files in place of gopls (...)". A plain name like "staticcheck" is a
// slot of one alternative.
//
// For lint and check, every slot answers for the language's files: the
// drivers of every served slot run, and each slot that no working
// alternative serves leaves those files unchecked, even when other slots
// ran. Go's lint = ["staticcheck", "go-vet"] without the go command runs
// staticcheck and reports go-vet unchecked. Format is different: the
// first slot that a working alternative serves formats and the later
// ones do not run, so the files are unchecked only when no slot is
// served.
//
// An unchecked slot adds a status "unchecked" to the answer, one per
// language and slot (not per file): its driver is the slot as written
// ("go-vet", "gopls | go-build + go-vet"; for format, the whole list),
// and its message counts the files, names up to three, and says why each
// driver was not available and how to install it. Such an answer is never
// ok: the command line exits 2, and in a plan the step fails with kind
// unchecked and the plan ends. A language whose list for the step is
// empty (shell's check = []) is not unchecked: the answer's coverage says
// no driver is configured for its files, as it does of files no language
// covers.
//
// Only files that were asked for (named, or changed in the workspace) go
// unchecked when a slot of the embedded defaults' list is left unserved
// because its tools are not installed: the files a walk swept in (no
// paths, a directory, a glob) are then coverage, a note that says how to
// install the tool or to set the list to [] (yamllint missing does not
// fail devbroker lint of a repository). A list you or the project write,
// a driver whose command you set, and a tool that was found but failed
// are strict for every file.
type Language struct {
	// Disabled removes the language: a project writes
	// [languages.NAME] disabled = true to turn off a default language.
	Disabled bool `toml:"disabled"`
	// FileTypes are the file name patterns of the language, matched
	// against the base name ("*.go", "Makefile") or, when they contain a
	// slash, the workspace path ("**/*.d.ts"). At least one is required.
	FileTypes []string `toml:"file_types"`
	// Format names the drivers that format the language's files, tried in
	// order: the first slot that a working alternative serves formats, and
	// the files are unchecked only when none is served.
	Format []string `toml:"format"`
	// Lint names the drivers whose findings lint reports. Every slot runs,
	// each served by its first working alternative; a slot none serves is
	// unchecked.
	Lint []string `toml:"lint"`
	// Check names the drivers whose findings check reports (compile and
	// type errors, usually a language server). Every slot runs, each
	// served by its first working alternative; a slot none serves is
	// unchecked. Default for Go:
	// "gopls | go-build + go-vet".
	Check []string `toml:"check"`
	// Test names the drivers that run the tests a change affects (they
	// run the repository's code, so only in a trusted root). Every slot
	// runs, each served by its first working alternative. Default for
	// Go: "go-test".
	Test []string `toml:"test"`
	// Intelligence names the language servers that answer definition,
	// references, hover, symbols, rename and code_actions for the
	// language's files, in order: for each of these, the first server the
	// probe found working whose initialize answer offers it answers (a
	// server that does not offer rename leaves rename to the next). Each
	// entry is one driver name (no "|" or "+": the list is the order of
	// preference) of a driver of type "lsp"; an external command or a
	// linked-in tool answers none of them. A language whose list is empty
	// or left out has none of these steps, and the step says why; one
	// whose servers are all missing says how to install them. A
	// workspace symbol search (symbols without a path) asks the first
	// server that offers symbols of every language whose files are under
	// the root. Defaults: go ["gopls"], python ["pyright"], javascript
	// and typescript ["typescript-language-server"].
	Intelligence []string `toml:"intelligence"`
	// FailOn says which error findings of the language's files stop a
	// plan at a lint or check step: "any" (the default: every error does)
	// or "introduced" (only the errors the plan's session introduced: a
	// lint or check answer over changed content tells each finding
	// introduced or pre-existing against the content before the change,
	// and lists the pre-existing findings of such files apart). A plan's
	// own fail_on wins over it.
	FailOn string `toml:"fail_on"`

	// Defaulted is set by the loader, never by a file: which of format,
	// lint, check and intelligence are the embedded defaults' lists, as
	// no configuration file of the user's or the project's wrote them. A
	// driver only such a list names is one nobody asked for: when it was
	// never found, the files a walk sweeps in go without it as coverage,
	// not as an unchecked answer.
	Defaulted []string `toml:"-"`
}

// Driver defines one driver: a linked-in tool, a language server, or an
// external command. Most keys apply to external commands only; the
// language-server keys are marked so. A project's driver that names what
// runs does not run until the user trusts the root (see Trust, above).
type Driver struct {
	// Disabled removes the driver: a project writes
	// [drivers.NAME] disabled = true to turn off a default driver, and it
	// is taken out of every language that names it ("gopls | go-build +
	// go-vet" without gopls is "go-build + go-vet"; a list left empty has
	// nothing configured).
	Disabled bool `toml:"disabled"`
	// Type is how the driver runs, and is required: "gofumpt" and
	// "staticcheck" are linked into devbroker, "lsp" is a language server,
	// "external" is a command; "gotest", "pytest" and "vitest" run the
	// tests a change affects, and "junit" runs any test runner: its
	// command writes a JUnit XML report to {report} (see Test runners).
	Type string `toml:"type"`
	// Doc is a sentence about what the driver does, shown by the probe.
	Doc string `toml:"doc"`
	// URL is the address of the tool's documentation: SARIF logs give
	// it as the tool's informationUri.
	URL string `toml:"url"`
	// Timeout bounds one run, as a Go duration ("30s", "2m"). Default 60s.
	// For a language server, it runs from the request's start and covers
	// the wait for the driver's probe (its first use) and for the
	// server's start (its answer to initialize): a probe or a start that
	// has not ended then goes on in the background, and the request
	// answers timeout saying so. It does not count the server's load:
	// it runs from when the server last reported loading its workspace
	// or began the request (gopls takes in the files a check opens
	// before it begins the check). Ten times it (the load bound) bounds
	// a load in which the server reports nothing new, and a request
	// still waiting on a load then answers indexing (docs/verdicts.md).
	// For staticcheck, it bounds a run that makes no progress: it does
	// not count loading the packages, and runs from each package
	// analyzed, so a first analysis with a cold cache is not cut short;
	// ten times it bounds the loading. For an external command, it runs
	// from the command's last output (go vet and go build print each
	// package they build, with -v, so a first run over a cold build cache
	// is not cut short while it compiles), and ten times it bounds the
	// whole run.
	Timeout Duration `toml:"timeout"`

	// Command is the argv of an external command or a language server,
	// required for both: no shell is involved. Placeholders: {file} is the
	// absolute path of the file's copy (in the staged tree for input
	// "staged"), {path} its workspace path, {root} the root directory (or
	// the staged tree), {overlay} the Go overlay file (input "overlay"),
	// and {packages}, a whole argument, the Go packages of the files a
	// run is about: ./dir for each directory that holds one, relative to
	// dir, each once, leaving out what ./... passes over (testdata,
	// vendor, names starting with "." or "_", another module's
	// directories, files the build constraints exclude); the command does
	// not run when none is left, and the answer then notes each such file
	// as not looked at; {packages} is ./... for more directories than fit
	// a command line. For an external command, a bare program name (as in fix_command and
	// version_command) is looked up, in a root you trust, first among the
	// project's own tools: node_modules/.bin, .venv/bin and venv/bin under
	// the root, then a tool directive of the root's go.mod (run as go tool
	// NAME); then on PATH. In a root you have not trusted, on PATH only:
	// those are binaries the repository controls. A junit driver's
	// command must hold {report}, alone or in an argument
	// ("--junitxml={report}"): the path where the runner writes its
	// JUnit XML report.
	Command []string `toml:"command"`
	// FixCommand is the argv that applies fixes (lint with fix: true);
	// empty when the driver cannot fix.
	FixCommand []string `toml:"fix_command"`
	// VersionCommand prints the tool's version, for the probe.
	VersionCommand []string `toml:"version_command"`
	// Input is how an external command sees the workspace content (never
	// the disk, which may be stale): "stdin" (each file's content on
	// standard input, one run per file), "staged" (the workspace files
	// copied into a temporary tree that the command runs in), or
	// "overlay" (for Go tools: a -overlay JSON file that maps the
	// changed files to temporary copies; {overlay} names it). Default
	// "stdin".
	Input string `toml:"input"`
	// PerFile runs the command once per file ({file} is set) when true,
	// or once for all files when false ({file} is not available). Default
	// true for input "stdin" (which cannot be false) and for a command that
	// names {file} or {path}; false otherwise.
	PerFile *bool `toml:"per_file"`
	// Dir is the working directory, a slash path relative to the root (or
	// the staged tree) that stays inside it. Default: the root. A dir
	// that leads through a symlink out of the root runs nothing: the
	// answer names the key and where it leads.
	Dir string `toml:"dir"`
	// Env adds environment variables to the command's, each written
	// "NAME=value".
	Env []string `toml:"env"`
	// Output makes the driver a formatter and says where the formatted
	// file comes from: "stdout" (the command prints it) or "file" (the
	// command rewrites the staged file in place). Leave it unset for a
	// linter.
	Output string `toml:"output"`
	// RangeArgs are, for a formatter, arguments added to its command to
	// format some lines only, for format's only = "changed": the command
	// runs once per run of changed lines, last first, on what the run
	// before left. Placeholders: {start_line} and {end_line}, the run's
	// first and last line (1-based); {start_utf16} and {end_utf16}, the
	// offsets in UTF-16 code units of the first line's start and of the
	// last line's end before its terminator (prettier's --range-start and
	// --range-end). Lines the formatter rewrites keep their line endings.
	// A formatter without range_args formats a changed file whole only
	// when it is canonical and the file was formatted before the change.
	RangeArgs []string `toml:"range_args"`
	// Canonical says that a formatter's output depends on the code alone,
	// not on its layout, as gofmt's does: format with only = "changed"
	// then formats a changed file whole when it was formatted before the
	// change, since formatting it rewrites only what the change needs.
	// gofumpt, linked in, is canonical. Default false.
	Canonical bool `toml:"canonical"`
	// ExitCodes says what exit codes mean.
	ExitCodes ExitCodes `toml:"exit_codes"`
	// Errorformat lists Vim errorformat patterns that parse findings from
	// the command's output (github.com/reviewdog/errorformat); a pattern
	// that does not compile is an error.
	Errorformat []string `toml:"errorformat"`
	// JSON parses findings from JSON output instead; set errorformat or
	// json, not both.
	JSON *JSONMapping `toml:"json"`
	// Stream is which output stream findings are parsed from: "stdout"
	// (default) or "stderr".
	Stream string `toml:"stream"`
	// Severity is the severity of findings whose parser gives none:
	// "error", "warning" (default) or "info".
	Severity string `toml:"severity"`
	// Smoke is a tiny input the probe runs the driver on, with the file
	// name it is given as. Without it, the probe only checks that the
	// tool starts.
	Smoke *Smoke `toml:"smoke"`
	// Install says how to install the tool, shown when it is missing.
	Install string `toml:"install"`
	// RunsRepositoryCode says that the tool runs code the repository
	// provides, whatever its command: prettier loads prettier.config.js
	// and plugins from the root, eslint its eslint.config.js, cargo
	// clippy build scripts, procedural macros and .cargo/config.toml
	// aliases (even cargo clippy --version). Such a driver is untrusted,
	// neither probed nor run, in a root the user has not trusted (with
	// devbroker trust DIR, which a root without a .devbroker.toml allows
	// too). A test driver (types gotest, pytest, vitest) runs the
	// repository's tests whatever the file says: it is always true there.
	RunsRepositoryCode bool `toml:"runs_repository_code"`
	// ProjectScope names the project configuration that states which
	// files the tool checks, so that a walk of the whole root (format,
	// lint or check with no paths) passes over the files the project
	// leaves out, as the project's own run of the tool would, and says
	// how many in a coverage note: "pyright" (include, exclude and ignore
	// of pyrightconfig.json, or of [tool.pyright] in pyproject.toml) or
	// "tsconfig" (files, include and exclude of tsconfig.json or
	// jsconfig.json, with extends and references, and allowJs for
	// JavaScript files). It narrows a language's walk when every driver
	// its list for the step names has the same project_scope. A file
	// named, or changed in the workspace, is checked whatever the project
	// says; a project file that cannot be parsed narrows nothing and the
	// answer warns.
	ProjectScope string `toml:"project_scope"`
	// ProjectMarkers are, for a language server or an external command,
	// the names of the files that mark a project's directory
	// ("tsconfig.json", "pyproject.toml", "go.mod"): each file the driver
	// answers for belongs to the nearest directory above it, up to the
	// root, that holds one of them (the root when none does), and an
	// answer about files of a project below the root names the project
	// and the driver that answered ("projects"). An external command runs
	// once per project, in the project's directory (dir, when set, is
	// taken under it), so that go build and go vet run in the module of
	// the files they are about. Empty: the root is the one project.
	ProjectMarkers []string `toml:"project_markers"`
	// ServerRoot is, for a language server with project_markers, the
	// directory it is started in and told is its workspace: "project"
	// starts one server per project, rooted at the project's directory
	// (pyright, tsserver, rust-analyzer and clangd read their project from
	// their root; in a trusted root each project's own node_modules/.bin,
	// .venv/bin or venv/bin copy of the server comes first); "root" (the
	// default) keeps one server for the whole root, which answers for
	// every project (gopls handles several modules).
	ServerRoot string `toml:"server_root"`
	// MaxProjectServers bounds, for server_root = "project", how many
	// project servers the driver starts; the files of projects past the
	// bound are answered by the server of the root, and the answer says
	// so. 0 means the default, 8; negative is an error.
	MaxProjectServers int `toml:"max_project_servers"`
	// Lanes, for a language server, is the most processes of it that one
	// root runs at once: sessions with different unwritten content asking
	// at the same time are answered side by side, each process a whole
	// server with its own memory, instead of one after the other. A
	// process is added only while every one is answering; one past the
	// first closes after two minutes without a request (the first after
	// idle_timeout). 0 means the default: for gopls, half the machine's
	// cores (at least 1, at most 4); 1 for other servers. Negative is an
	// error.
	Lanes int `toml:"lanes"`

	// LanguageID is, for a language server, the language identifier sent
	// in didOpen ("go", "python"); default: by the file's extension for
	// TypeScript and JavaScript (typescript, typescriptreact, javascript,
	// javascriptreact) and for C and C++ (c, cpp), else the name of the
	// first language, in name order, whose check, lint or format lists
	// the driver.
	LanguageID string `toml:"language_id"`
	// IdleTimeout, for a language server, stops it after it has not been
	// used for this long, as a Go duration; it starts again on the next
	// request. Default 10m.
	IdleTimeout Duration `toml:"idle_timeout"`
	// Settings are, for a language server, its configuration: sent as
	// initializationOptions and in answer to workspace/configuration.
	// Any keys are allowed.
	Settings map[string]any `toml:"settings"`

	// ProjectTools is set by the loader, never by a file: the root is
	// trusted, so a language server may be the project's own copy (a
	// gopls its go.mod declares as a tool).
	ProjectTools bool `toml:"-"`
	// Defaulted is set by the loader, never by a file: the embedded
	// defaults define the driver, and no configuration file of the
	// user's or the project's wrote a key of it that decides what runs
	// ([ExecKeys]): nobody asked for this program by name.
	Defaulted bool `toml:"-"`
	// ConfineIncludes is set by the loader, never by a file: the root is
	// not trusted and the driver is a language server of C or C++ (a
	// language whose file types are C's, C++'s or Objective-C's), which
	// reads what its sources include. It answers only about files whose
	// includes, flags and compile commands reach no file outside the root
	// but the system's own (capabilities/confine.Reach).
	ConfineIncludes bool `toml:"-"`
}

// ExitCodes classifies an external command's exit status. A code may not
// be in both lists.
type ExitCodes struct {
	// OK are the codes of a run with no findings. Default [0].
	OK []int `toml:"ok"`
	// Findings are the codes of a run that found problems. Default [1].
	// Any other code is a tool failure: the status is "crashed" and the
	// message carries the command's standard error.
	Findings []int `toml:"findings"`
}

// JSONMapping maps a JSON report to diagnostics. Paths are dot-separated
// keys into each finding object.
type JSONMapping struct {
	// Findings is the path to the array of findings: "" when the output
	// is the array itself, "lines" when it is one finding object per line.
	Findings string `toml:"findings"`
	// File is the path of a finding's file name; "" when the command ran
	// on one file.
	File string `toml:"file"`
	// Line is the path of a finding's 1-based line.
	Line string `toml:"line"`
	// Column is the path of a finding's 1-based column.
	Column string `toml:"column"`
	// EndLine is the path of the line where a finding ends.
	EndLine string `toml:"end_line"`
	// EndColumn is the path of the column where a finding ends.
	EndColumn string `toml:"end_column"`
	// Severity is the path of a finding's severity; findings without one
	// take the driver's severity.
	Severity string `toml:"severity"`
	// Code is the path of a finding's rule or error code ("SC2086").
	Code string `toml:"code"`
	// Message is the path of a finding's message, and is required.
	Message string `toml:"message"`
	// ColumnUnit is how the tool counts columns: "chars" (default),
	// "bytes" or "utf16".
	ColumnUnit string `toml:"column_unit"`
}

// Smoke is the probe's tiny test input for a driver.
type Smoke struct {
	// File is the file name the input is given as ("smoke.sh"), and is
	// required.
	File string `toml:"file"`
	// Content is the input.
	Content string `toml:"content"`
	// Files, for a language server, are other files the smoke test's
	// root holds, by relative path: the project file a server needs to
	// analyze the smoke file at all (rust-analyzer's Cargo.toml). External
	// commands do not use them.
	Files map[string]string `toml:"files"`
}
