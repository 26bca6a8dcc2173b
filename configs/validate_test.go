package configs

import (
	"errors"
	"strings"
	"testing"
)

// valid is a small complete configuration that each error case breaks in
// one place.
const valid = `[languages.sh]
file_types = ["*.sh"]
lint = ["sc"]

[drivers.sc]
type = "external"
command = ["shellcheck", "-"]
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, toml, want string
	}{
		{"syntax", "[languages.sh\n", `.devbroker.toml:1:14: expected ']' to close table name`},
		{"unknown key", valid + "colour = true\n",
			`.devbroker.toml:8:1: drivers.sc.colour: unknown key; this table takes canonical, command, dir, disabled, doc, env, errorformat, exit_codes, fix_command, idle_timeout, input, install, json, lanes, language_id, max_project_servers, output, per_file, project_markers, project_scope, range_args, runs_repository_code, server_root, settings, severity, smoke, stream, timeout, type, url, version_command`},
		{"unknown top-level table", valid + "[lint]\n", `.devbroker.toml:8:2: lint: unknown key; this table takes drivers, inherit_defaults, languages, limits, mcp`},
		{"unknown nested key", valid + "exit_codes = { ok = [0], fail = [2] }\n",
			`.devbroker.toml:8:26: drivers.sc.exit_codes.fail: unknown key; this table takes findings, ok`},
		{"unknown project scope", valid + "project_scope = \"mypy\"\n",
			`.devbroker.toml:8:1: drivers.sc.project_scope: "mypy" is not one of pyright, tsconfig`},
		{"a server root on an external driver", valid + "server_root = \"project\"\n",
			`.devbroker.toml:8:1: drivers.sc.server_root: server_root is for a language server (type "lsp"): an external command with project_markers runs in each project's directory`},
		{"project markers on a linked-in driver", strings.Replace(valid, `type = "external"`, `type = "gofumpt"`, 1) + "project_markers = [\"go.mod\"]\n",
			`.devbroker.toml:8:1: drivers.sc.project_markers: project_markers are for a language server (type "lsp") or an external command (type "external")`},
		{"a marker that is a path", strings.Replace(valid, `type = "external"`, `type = "lsp"`, 1) + "project_markers = [\"web/tsconfig.json\"]\n",
			`.devbroker.toml:8:20: drivers.sc.project_markers[0]: "web/tsconfig.json" is not a file name: a marker is the name of a file in a project's directory, like "go.mod"`},
		{"unknown server root", strings.Replace(valid, `type = "external"`, `type = "lsp"`, 1) + "server_root = \"module\"\n",
			`.devbroker.toml:8:1: drivers.sc.server_root: "module" is not one of root, project`},
		{"negative max project servers", strings.Replace(valid, `type = "external"`, `type = "lsp"`, 1) + "max_project_servers = -1\n",
			`.devbroker.toml:8:1: drivers.sc.max_project_servers: -1 is negative: give the most project servers to start, or 0 for the default (8)`},
		{"negative lanes", strings.Replace(valid, `type = "external"`, `type = "lsp"`, 1) + "lanes = -2\n",
			`.devbroker.toml:8:1: drivers.sc.lanes: -2 is negative: give the most processes of the server one root runs at once, or 0 for the default`},
		{"lanes of a command", valid + "lanes = 2\n", `.devbroker.toml:8:1: drivers.sc.lanes: lanes is for a language server (type "lsp")`},
		{"wrong type", valid + "per_file = \"yes\"\n", `.devbroker.toml:8:12: drivers.sc.per_file: want true or false, not a string`},
		{"wrong element type", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc", 3]`, 1),
			`.devbroker.toml:3:15: languages.sh.lint: want an array of strings, not an integer`},
		{"bad duration", valid + "timeout = \"30\"\n", `.devbroker.toml:8:11: drivers.sc.timeout: not a duration like "30s" or "2m": "30"`},
		{"duration as a number", valid + "doc = \"x\"\ntimeout = 30\n", `.devbroker.toml:9:1: drivers.sc.timeout: not a duration like "30s" or "2m": "30"`},
		{"negative duration", valid + "timeout = \"-1s\"\n", `.devbroker.toml:8:11: drivers.sc.timeout: a duration must not be negative: "-1s"`},
		{"undefined driver", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc", "shfmt"]`, 1),
			`.devbroker.toml:3:15: languages.sh.lint[1]: driver "shfmt" is not defined under [drivers]; defined: sc`},
		{"driver twice in an entry", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc | go-build + sc"]`, 1),
			`.devbroker.toml:3:9: languages.sh.lint[0]: "sc | go-build + sc": driver "sc" appears twice; name each driver once per entry`},
		{"undefined driver in an alternative", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc", "x | sc + y"]`, 1),
			".devbroker.toml:3:15: languages.sh.lint[1]: driver \"x\" is not defined under [drivers]; defined: sc\n" +
				`.devbroker.toml:3:15: languages.sh.lint[1]: driver "y" is not defined under [drivers]; defined: sc`},
		{"empty alternative", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc |"]`, 1),
			`.devbroker.toml:3:9: languages.sh.lint[0]: "sc |": alternative 2 is empty; separate alternatives with "|", like "gopls | go-build + go-vet" (a driver name cannot contain "|" or "+")`},
		{"bad fail_on", strings.Replace(valid, `lint = ["sc"]`, "lint = [\"sc\"]\nfail_on = \"new\"", 1),
			`.devbroker.toml:4:1: languages.sh.fail_on: "new" is not a choice: give "any" (every error finding stops a plan, the default) or "introduced" (only the errors a session introduced do)`},
		{"no file types", strings.Replace(valid, `file_types = ["*.sh"]`, `file_types = []`, 1),
			`.devbroker.toml:2:1: languages.sh.file_types: must list at least one file name pattern, like "*.go"`},
		{"missing file types", strings.Replace(valid, "file_types = [\"*.sh\"]\n", "", 1),
			`.devbroker.toml:1:12: languages.sh.file_types: must list at least one file name pattern, like "*.go"`},
		{"bad file type", strings.Replace(valid, `"*.sh"`, `"*.sh", "[a-"`, 1),
			`.devbroker.toml:2:23: languages.sh.file_types[1]: "[a-" is not a valid file name pattern`},
		{"unknown type", strings.Replace(valid, `"external"`, `"script"`, 1),
			`.devbroker.toml:6:1: drivers.sc.type: "script" is not a driver type; one of gofumpt, staticcheck, external, lsp, gotest, pytest, vitest, junit`},
		{"missing type", strings.Replace(valid, "type = \"external\"\n", "", 1),
			`.devbroker.toml:5:10: drivers.sc.type: missing; one of gofumpt, staticcheck, external, lsp, gotest, pytest, vitest, junit`},
		{"external without command", strings.Replace(valid, "command = [\"shellcheck\", \"-\"]\n", "", 1),
			`.devbroker.toml:5:10: drivers.sc.command: an external driver needs a command, an argv list like ["shellcheck", "-f", "gcc", "-"]`},
		{"junit without report", strings.Replace(valid, `"external"`, `"junit"`, 1),
			`.devbroker.toml:7:1: drivers.sc.command: a junit driver needs a command that writes a JUnit XML report to {report}, an argv list like ["pytest", "--junitxml={report}"]`},
		{"lsp without command", strings.Replace(strings.Replace(valid, "command = [\"shellcheck\", \"-\"]\n", "", 1), `"external"`, `"lsp"`, 1),
			`.devbroker.toml:5:10: drivers.sc.command: a language server needs a command, an argv list like ["pyright-langserver", "--stdio"]`},
		{"empty program", strings.Replace(valid, `["shellcheck", "-"]`, `["", "-"]`, 1),
			`.devbroker.toml:7:12: drivers.sc.command[0]: the program name is empty`},
		{"bad input", valid + "input = \"disk\"\n", `.devbroker.toml:8:1: drivers.sc.input: "disk" is not one of stdin, staged, overlay`},
		{"bad output", valid + "output = \"stderr\"\n", `.devbroker.toml:8:1: drivers.sc.output: "stderr" is not one of stdout, file`},
		{"bad stream", valid + "stream = \"both\"\n", `.devbroker.toml:8:1: drivers.sc.stream: "both" is not one of stdout, stderr`},
		{"bad severity", valid + "severity = \"fatal\"\n", `.devbroker.toml:8:1: drivers.sc.severity: "fatal" is not one of error, warning, info`},
		{"stdin not per file", valid + "per_file = false\n",
			`.devbroker.toml:8:1: drivers.sc.per_file: input "stdin" runs the command once per file; per_file = false needs input "staged" or "overlay"`},
		{"dir outside root", valid + "dir = \"../x\"\n", `.devbroker.toml:8:1: drivers.sc.dir: "../x" is not a relative path inside the root`},
		{"absolute dir", valid + "dir = \"/tmp\"\n", `.devbroker.toml:8:1: drivers.sc.dir: "/tmp" is not a relative path inside the root`},
		{"bad env", valid + "env = [\"A=1\", \"B\"]\n", `.devbroker.toml:8:15: drivers.sc.env[1]: "B" is not like "NAME=value"`},
		{"exit code twice", valid + "exit_codes = { ok = [0, 1], findings = [1] }\n",
			`.devbroker.toml:8:41: drivers.sc.exit_codes.findings[0]: exit code 1 is also in ok`},
		{"exit code in default ok", valid + "[drivers.sc.exit_codes]\nfindings = [0, 1]\n",
			`.devbroker.toml:9:1: drivers.sc.exit_codes.findings: lists 0, which is the default ok; set ok too`},
		{"errorformat and json", valid + "errorformat = [\"%f:%l: %m\"]\njson = { message = \"msg\" }\n",
			`.devbroker.toml:9:1: drivers.sc.json: set errorformat or json, not both`},
		{"bad errorformat", valid + "errorformat = [\"%f:%l: %m\", \"%f:%Y\"]\n",
			`.devbroker.toml:8:29: drivers.sc.errorformat[1]: not a valid errorformat pattern: E376: Invalid %Y in format string prefix`},
		{"errorformat ends in %", valid + "errorformat = [\"%f:%l: %m%\"]\n",
			`.devbroker.toml:8:16: drivers.sc.errorformat[0]: not a valid errorformat pattern: "%f:%l: %m%" ends inside a %-item`},
		{"json without message", valid + "[drivers.sc.json]\nline = \"line\"\n",
			`.devbroker.toml:8:13: drivers.sc.json.message: missing: the path of a finding's message`},
		{"bad column unit", valid + "json = { message = \"m\", column_unit = \"runes\" }\n",
			`.devbroker.toml:8:25: drivers.sc.json.column_unit: "runes" is not one of chars, bytes, utf16`},
		{"smoke without file", valid + "smoke = { content = \"echo\" }\n",
			`.devbroker.toml:8:1: drivers.sc.smoke.file: missing: the file name the smoke input is given as, like "smoke.sh"`},
		{"smoke file outside the root", valid + "smoke = { file = \"../x.sh\", content = \"echo\" }\n",
			`.devbroker.toml:8:11: drivers.sc.smoke.file: "../x.sh" is not a relative path inside the smoke test's temporary root`},
		{"absolute smoke file", valid + "smoke = { file = \"/tmp/x.sh\", content = \"echo\" }\n",
			`.devbroker.toml:8:11: drivers.sc.smoke.file: "/tmp/x.sh" is not a relative path inside the smoke test's temporary root`},
		{"undefined driver in intelligence", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc"]`+"\nintelligence = [\"ls\"]", 1),
			`.devbroker.toml:4:17: languages.sh.intelligence[0]: driver "ls" is not defined under [drivers]; defined: sc`},
		{"external command in intelligence", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc"]`+"\nintelligence = [\"sc\"]", 1),
			`.devbroker.toml:4:17: languages.sh.intelligence[0]: driver "sc" is of type "external"; only a language server (type "lsp") answers definition, references, hover, symbols, rename and code_actions`},
		{"alternatives in intelligence", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc"]`+"\nintelligence = [\"sc | ls\"]", 1),
			`.devbroker.toml:4:17: languages.sh.intelligence[0]: "sc | ls" is not a driver name: intelligence lists one language server per entry, in the order they are tried, like ["pyright", "pylsp"]`},
		{"a server twice in intelligence", strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc"]`+"\nintelligence = [\"ls\", \"ls\"]", 1) + "[drivers.ls]\ntype = \"lsp\"\ncommand = [\"ls\"]\n",
			`.devbroker.toml:4:23: languages.sh.intelligence[1]: driver "ls" is listed twice; name each language server once`},
		{"smoke project file outside the root", valid + "smoke = { file = \"x.sh\", content = \"echo\", files = { \"../Cargo.toml\" = \"\" } }\n",
			`.devbroker.toml:8:54: drivers.sc.smoke.files."../Cargo.toml": "../Cargo.toml" is not a relative path inside the smoke test's temporary root`},
		{"smoke project file is the smoke file", valid + "smoke = { file = \"x.sh\", content = \"echo\", files = { \"./x.sh\" = \"\" } }\n",
			`.devbroker.toml:8:54: drivers.sc.smoke.files."./x.sh": "./x.sh" is the smoke file itself: give its content in smoke.content`},
		{"unknown tool profile", valid + "[mcp]\ntools = \"tiny\"\n",
			`.devbroker.toml:9:1: mcp.tools: must be one of default, lean, full, got "tiny"`},
		{"negative limit", valid + "[limits]\nmax_diagnostics = -1\n",
			`.devbroker.toml:9:1: limits.max_diagnostics: must not be negative, got -1 (0 means the default, 200)`},
		{"quoted names", "[languages.\"c++\"]\nfile_types = [\"*.cc\"]\nlint = [\"clang.tidy\"]\n",
			`.devbroker.toml:3:9: languages."c++".lint[0]: driver "clang.tidy" is not defined under [drivers]; defined: `},
		{"several errors, in line order", strings.Replace(valid, `"external"`, `"script"`, 1) + "input = \"disk\"\n",
			".devbroker.toml:6:1: drivers.sc.type: \"script\" is not a driver type; one of gofumpt, staticcheck, external, lsp, gotest, pytest, vitest, junit\n" +
				`.devbroker.toml:8:1: drivers.sc.input: "disk" is not one of stdin, staged, overlay`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse(ProjectFile, []byte(tt.toml))
			if err == nil {
				t.Fatalf("Parse succeeded (%+v), want error\n%s", cfg, tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse error\n got: %s\nwant: %s", got, tt.want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Errorf("error is %T, want a non-empty ErrorList", err)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	cfg, err := Parse(ProjectFile, []byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Drivers["sc"]
	// Output and per_file are left to the driver: output makes a
	// formatter, and per_file depends on the command's placeholders.
	if d.Input != "stdin" || d.Output != "" || d.Stream != "stdout" || d.Severity != "warning" ||
		d.PerFile != nil || d.Timeout.Duration != DefaultTimeout ||
		len(d.ExitCodes.OK) != 1 || d.ExitCodes.OK[0] != 0 || len(d.ExitCodes.Findings) != 1 || d.ExitCodes.Findings[0] != 1 {
		t.Errorf("defaults not filled in: %+v", d)
	}
	if cfg.Limits.MaxDiagnostics != DefaultMaxDiagnostics {
		t.Errorf("MaxDiagnostics = %d, want %d", cfg.Limits.MaxDiagnostics, DefaultMaxDiagnostics)
	}
}

func TestErrorFormat(t *testing.T) {
	for _, tt := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f", Line: 3, Column: 2, Field: "a.b", Msg: "m"}, "f:3:2: a.b: m"},
		{Error{File: "f", Line: 3, Field: "a.b", Msg: "m"}, "f:3: a.b: m"},
		{Error{File: "f", Msg: "m\nn"}, `f: m\nn`},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
	if (ErrorList{}).Err() != nil {
		t.Error("empty ErrorList.Err() != nil")
	}
}
