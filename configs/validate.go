package configs

// This file defines the semantic checks that run on a merged
// configuration after strict decoding.

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/reviewdog/errorformat"
)

// DriverTypes are the driver types a configuration may name. The registry
// of implemented types (capabilities/drivers.Types) must name exactly
// these; a test there holds the two together.
var DriverTypes = []string{"gofumpt", "staticcheck", "external", "lsp", "gotest", "pytest", "vitest", "junit"}

// The values of the enumerated keys.
var (
	inputs      = []string{"stdin", "staged", "overlay"}
	outputs     = []string{"stdout", "file"}
	streams     = []string{"stdout", "stderr"}
	severities  = []string{"error", "warning", "info"}
	columnUnits = []string{"chars", "bytes", "utf16"}
	// ProjectScopes are the values of a driver's project_scope.
	ProjectScopes = []string{"pyright", "tsconfig"}
	// ServerRoots are the values of a language server's server_root.
	ServerRoots = []string{"root", "project"}
)

// validator collects the problems of a merged configuration.
type validator struct {
	m    *merged
	errs ErrorList
}

func (m *merged) validate() ErrorList {
	v := &validator{m: m}
	for _, name := range sortedKeys(m.cfg.Languages) {
		v.language(name, m.cfg.Languages[name])
	}
	for _, name := range sortedKeys(m.cfg.Drivers) {
		v.driver(name, m.cfg.Drivers[name])
	}
	if n := m.cfg.Limits.MaxDiagnostics; n < 0 {
		v.errorf("limits.max_diagnostics", "must not be negative, got %d (0 means the default, %d)", n, DefaultMaxDiagnostics)
	}
	if t := m.cfg.MCP.Tools; t != "" && !slices.Contains(MCPTools, t) {
		v.errorf("mcp.tools", "must be one of %s, got %q", strings.Join(MCPTools, ", "), t)
	}
	for _, l := range []struct {
		key string
		n   int64
	}{
		{"limits.max_files", int64(m.cfg.Limits.MaxFiles)},
		{"limits.max_file_bytes", m.cfg.Limits.MaxFileBytes},
		{"limits.max_total_bytes", m.cfg.Limits.MaxTotalBytes},
	} {
		if l.n < 0 {
			v.errorf(l.key, "must not be negative, got %d (0 means the default)", l.n)
		}
	}
	return v.errs
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, v.m.errorAt(path, fmt.Sprintf(format, args...)))
}

// language checks one language: its file types, and that every driver it
// names is defined.
func (v *validator) language(name string, l *Language) {
	p := fieldPath("languages", name)
	if len(l.FileTypes) == 0 {
		v.errorf(p+".file_types", "must list at least one file name pattern, like \"*.go\"%s", v.replacedHint(p))
	}
	for i, ft := range l.FileTypes {
		if ft == "" || !doublestar.ValidatePattern(ft) {
			v.errorf(elem(p+".file_types", i), "%q is not a valid file name pattern", ft)
		}
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"format", l.Format}, {"lint", l.Lint}, {"check", l.Check}, {"test", l.Test}} {
		for i, entry := range list.names {
			ep := elem(p+"."+list.key, i)
			slot, err := ParseSlot(entry)
			if err != nil {
				v.errorf(ep, "%v", err)
				continue
			}
			for _, dn := range slot.Drivers() {
				v.defined(ep, dn)
			}
		}
	}
	v.intelligence(p+".intelligence", l.Intelligence)
	switch l.FailOn {
	case "", "any", "introduced":
	default:
		v.errorf(p+".fail_on", "%q is not a choice: give \"any\" (every error finding stops a plan, the default) or \"introduced\" (only the errors a session introduced do)", l.FailOn)
	}
}

// intelligence checks a language's intelligence list: one defined
// language server per entry, each once.
func (v *validator) intelligence(p string, names []string) {
	for i, dn := range names {
		ep := elem(p, i)
		if strings.ContainsAny(dn, "|+") || strings.TrimSpace(dn) != dn || dn == "" {
			v.errorf(ep, "%q is not a driver name: intelligence lists one language server per entry, in the order they are tried, like [\"pyright\", \"pylsp\"]", dn)
			continue
		}
		if slices.Contains(names[:i], dn) {
			v.errorf(ep, "driver %q is listed twice; name each language server once", dn)
			continue
		}
		d, ok := v.m.cfg.Drivers[dn]
		switch {
		case !ok:
			v.defined(ep, dn)
		case d.Type != "" && d.Type != "lsp":
			v.errorf(ep, "driver %q is of type %q; only a language server (type \"lsp\") answers definition, references, hover, symbols, rename and code_actions", dn, d.Type)
		}
	}
}

// defined checks that the driver a list entry at ep names is defined.
func (v *validator) defined(ep, dn string) {
	if _, ok := v.m.cfg.Drivers[dn]; ok {
		return
	}
	v.errorf(ep, "driver %q is not defined under [drivers]; defined: %s", dn, strings.Join(sortedKeys(v.m.cfg.Drivers), ", "))
}

// replacedHint reminds that a later file's table replaced an entry whole
// (a driver table that changes the type).
func (v *validator) replacedHint(entry string) string {
	if v.m.replaced[entry] {
		return " (this table changes the driver's type, so it replaces [" + entry + "] whole: repeat the keys you keep)"
	}
	return ""
}

// driver checks one driver.
func (v *validator) driver(name string, d *Driver) {
	p := fieldPath("drivers", name)
	switch {
	case d.Type == "":
		v.errorf(p+".type", "missing; one of %s%s", strings.Join(DriverTypes, ", "), v.replacedHint(p))
	case !slices.Contains(DriverTypes, d.Type):
		v.errorf(p+".type", "%q is not a driver type; one of %s", d.Type, strings.Join(DriverTypes, ", "))
	case d.Type == "external" && len(d.Command) == 0:
		v.errorf(p+".command", "an external driver needs a command, an argv list like [\"shellcheck\", \"-f\", \"gcc\", \"-\"]%s", v.replacedHint(p))
	case d.Type == "junit" && !slices.ContainsFunc(d.Command, func(a string) bool { return strings.Contains(a, "{report}") }):
		v.errorf(p+".command", "a junit driver needs a command that writes a JUnit XML report to {report}, an argv list like [\"pytest\", \"--junitxml={report}\"]%s", v.replacedHint(p))
	case d.Type == "lsp" && len(d.Command) == 0:
		v.errorf(p+".command", "a language server needs a command, an argv list like [\"pyright-langserver\", \"--stdio\"]%s", v.replacedHint(p))
	}
	v.argv(p+".command", d.Command)
	v.argv(p+".fix_command", d.FixCommand)
	v.argv(p+".version_command", d.VersionCommand)
	if len(d.RangeArgs) > 0 && (d.Type != "external" || d.Output == "" || d.Input == "staged" || d.Input == "overlay") {
		v.errorf(p+".range_args", "range arguments are for an external formatter that reads the file on standard input (input \"stdin\", output set)")
	}
	v.oneOf(p+".input", d.Input, inputs)
	v.oneOf(p+".output", d.Output, outputs)
	v.oneOf(p+".stream", d.Stream, streams)
	v.oneOf(p+".severity", d.Severity, severities)
	v.oneOf(p+".project_scope", d.ProjectScope, ProjectScopes)
	v.oneOf(p+".server_root", d.ServerRoot, ServerRoots)
	for i, m := range d.ProjectMarkers {
		if m == "" || m == "." || m == ".." || strings.ContainsAny(m, `/\`) {
			v.errorf(fmt.Sprintf("%s.project_markers[%d]", p, i), "%q is not a file name: a marker is the name of a file in a project's directory, like \"go.mod\"", m)
		}
	}
	if d.MaxProjectServers < 0 {
		v.errorf(p+".max_project_servers", "%d is negative: give the most project servers to start, or 0 for the default (%d)", d.MaxProjectServers, DefaultMaxProjectServers)
	}
	if len(d.ProjectMarkers) > 0 && d.Type != "lsp" && d.Type != "external" {
		v.errorf(p+".project_markers", "project_markers are for a language server (type \"lsp\") or an external command (type \"external\")")
	}
	if d.ServerRoot != "" && d.Type != "lsp" {
		v.errorf(p+".server_root", "server_root is for a language server (type \"lsp\"): an external command with project_markers runs in each project's directory")
	}
	if d.Lanes < 0 {
		v.errorf(p+".lanes", "%d is negative: give the most processes of the server one root runs at once, or 0 for the default", d.Lanes)
	}
	if d.Lanes != 0 && d.Type != "lsp" {
		v.errorf(p+".lanes", "lanes is for a language server (type \"lsp\")")
	}
	if d.MaxProjectServers != 0 && d.Type != "lsp" {
		v.errorf(p+".max_project_servers", "max_project_servers is for a language server (type \"lsp\")")
	}
	if d.PerFile != nil && !*d.PerFile && (d.Input == "" || d.Input == "stdin") {
		v.errorf(p+".per_file", "input \"stdin\" runs the command once per file; per_file = false needs input \"staged\" or \"overlay\"")
	}
	if d.Dir != "" && (path.IsAbs(d.Dir) || strings.HasPrefix(d.Dir, `\`) || !isLocal(d.Dir)) {
		v.errorf(p+".dir", "%q is not a relative path inside the root", d.Dir)
	}
	for i, e := range d.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			v.errorf(elem(p+".env", i), "%q is not like \"NAME=value\"", e)
		}
	}
	v.exitCodes(p+".exit_codes", d.ExitCodes)
	v.parser(p, d)
	switch {
	case d.Smoke == nil:
	case d.Smoke.File == "":
		v.errorf(p+".smoke.file", "missing: the file name the smoke input is given as, like \"smoke.sh\"")
	case path.IsAbs(d.Smoke.File) || strings.HasPrefix(d.Smoke.File, `\`) || !isLocal(d.Smoke.File):
		// The probe writes the file under a temporary root: a path that
		// leaves it would write (and leave) a file anywhere on disk.
		v.errorf(p+".smoke.file", "%q is not a relative path inside the smoke test's temporary root", d.Smoke.File)
	}
	if d.Smoke != nil {
		for _, f := range slices.Sorted(maps.Keys(d.Smoke.Files)) {
			switch {
			case path.IsAbs(f) || strings.HasPrefix(f, `\`) || !isLocal(f) || path.Clean(f) == ".":
				v.errorf(p+".smoke.files."+keyPart(f), "%q is not a relative path inside the smoke test's temporary root", f)
			case path.Clean(f) == path.Clean(d.Smoke.File):
				v.errorf(p+".smoke.files."+keyPart(f), "%q is the smoke file itself: give its content in smoke.content", f)
			}
		}
	}
}

// isLocal reports whether a slash path stays inside its root.
func isLocal(p string) bool {
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}

// argv checks that a command, when given, names a program.
func (v *validator) argv(p string, argv []string) {
	if len(argv) > 0 && argv[0] == "" {
		v.errorf(elem(p, 0), "the program name is empty")
	}
}

// oneOf checks an enumerated key; "" means the key's default.
func (v *validator) oneOf(p, val string, allowed []string) {
	if val != "" && !slices.Contains(allowed, val) {
		v.errorf(p, "%q is not one of %s", val, strings.Join(allowed, ", "))
	}
}

// exitCodes checks that no code is both clean and a finding, counting
// the default of the side left unset.
func (v *validator) exitCodes(p string, ec ExitCodes) {
	switch {
	case ec.OK == nil && slices.Contains(ec.Findings, 0):
		v.errorf(p+".findings", "lists 0, which is the default ok; set ok too")
	case ec.Findings == nil && slices.Contains(ec.OK, 1):
		v.errorf(p+".ok", "lists 1, which is the default findings; set findings too")
	}
	for i, c := range ec.Findings {
		if slices.Contains(ec.OK, c) {
			v.errorf(elem(p+".findings", i), "exit code %d is also in ok", c)
		}
	}
}

// parser checks a driver's output parser: errorformat or json, each valid.
func (v *validator) parser(p string, d *Driver) {
	if len(d.Errorformat) > 0 && d.JSON != nil {
		v.errorf(p+".json", "set errorformat or json, not both")
	}
	for i, pat := range d.Errorformat {
		if err := checkErrorformat(pat); err != nil {
			v.errorf(elem(p+".errorformat", i), "not a valid errorformat pattern: %v", err)
		}
	}
	if j := d.JSON; j != nil {
		v.oneOf(p+".json.column_unit", j.ColumnUnit, columnUnits)
		if j.Message == "" {
			v.errorf(p+".json.message", "missing: the path of a finding's message")
		}
	}
}

// checkErrorformat compiles one pattern. The errorformat package panics on
// a pattern that ends inside a %-item ("%", "%*"); that is an error here.
func checkErrorformat(pat string) (err error) {
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("%q ends inside a %%-item", pat)
		}
	}()
	_, err = errorformat.NewErrorformat([]string{pat})
	return err
}

func sortedKeys[T any](m map[string]T) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
