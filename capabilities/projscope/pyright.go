package projscope

// This file reads pyright's scope: include, exclude and ignore of
// pyrightconfig.json, or of [tool.pyright] in pyproject.toml when there
// is no pyrightconfig.json, as pyright reads them.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// pyrightDefaultExcludes are the excludes pyright adds to the project's
// own.
var pyrightDefaultExcludes = []string{"**/node_modules", "**/__pycache__", "**/.*", "**/__editable__.*"}

// pyrightConfig is the part of pyright's configuration that states its
// scope.
type pyrightConfig struct {
	Include *[]string `json:"include" toml:"include"`
	Exclude *[]string `json:"exclude" toml:"exclude"`
	Ignore  *[]string `json:"ignore" toml:"ignore"`
}

// Pyright reads the scope of the project in the directory dir (a slash
// path relative to the root, "" or "." for the root) as pyright started
// there does: pyrightconfig.json, else [tool.pyright] in pyproject.toml; nil when
// there is neither. The files pyright checks are those below an include
// entry (the root when there is none) and below no exclude entry (its
// own defaults added: **/node_modules, **/__pycache__, **/.*); those
// below an ignore entry are checked but their diagnostics are not shown,
// so they are out of the scope too. Entries are paths relative to the
// configuration file, with `**` (any directories), `*` and `?` (within a
// segment). A file that cannot be parsed, or an include entry that
// cannot be placed (absolute, or out of the root), gives no scope and a
// warning; an exclude or ignore entry that cannot be placed is dropped
// with a warning. The configuration files are those in dir, their
// entries relative to dir, pyright's default excludes below dir; the
// files the scope tests are named relative to the root.
func Pyright(read ReadFunc, dir string) (*Scope, []string) {
	if dir == "." {
		dir = ""
	}
	var conf pyrightConfig
	file := path.Join(dir, "pyrightconfig.json")
	where := file
	data, err := read(file)
	switch {
	case err == nil:
		std, err := StandardJSON(data)
		if err == nil {
			err = json.Unmarshal(std, &conf)
		}
		if err != nil {
			return nil, []string{fmt.Sprintf("%s: %s; pyright's include and exclude in it are not used: every Python file a walk meets is checked", file, jsonError(std, err))}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, []string{fmt.Sprintf("%s cannot be read (%v); pyright's include and exclude in it are not used", file, err)}
	default:
		file = path.Join(dir, "pyproject.toml")
		where = file + " [tool.pyright]"
		data, err := read(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, []string{fmt.Sprintf("%s cannot be read (%v); pyright's include and exclude in it are not used", file, err)}
		}
		var doc struct {
			Tool struct {
				Pyright *pyrightConfig `toml:"pyright"`
			} `toml:"tool"`
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			if !strings.Contains(string(data), "[tool.pyright") {
				// Not pyright's to judge: the file says nothing of it.
				return nil, nil
			}
			return nil, []string{fmt.Sprintf("%s: %s; pyright's include and exclude in it are not used: every Python file a walk meets is checked", file, tomlError(err))}
		}
		if doc.Tool.Pyright == nil {
			return nil, nil
		}
		conf = *doc.Tool.Pyright
	}
	return pyrightScope(dir, file, where, conf)
}

// pyrightScope is the scope conf states, read from file in the directory
// dir (where names its table).
func pyrightScope(dir, file, where string, conf pyrightConfig) (*Scope, []string) {
	var warnings []string
	type rule struct {
		re  *regexp.Regexp
		why string
	}
	compile := func(key string, specs []string, strict bool) ([]rule, bool) {
		var out []rule
		for _, s := range specs {
			rel, ok := relSpec(dir, s)
			if !ok {
				if strict {
					warnings = append(warnings, fmt.Sprintf("%s: %s entry %q is absolute or leads out of the root, which devbroker cannot place; pyright's scope is not used: every Python file a walk meets is checked", where, key, s))
					return nil, false
				}
				warnings = append(warnings, fmt.Sprintf("%s: %s entry %q is absolute or leads out of the root, which devbroker cannot place; it is not used", where, key, s))
				continue
			}
			why := fmt.Sprintf("%s %s %q", where, key, s)
			out = append(out, rule{pyrightRegexp(rel), why})
		}
		return out, true
	}
	var include []rule
	if conf.Include != nil && len(*conf.Include) > 0 {
		var ok bool
		if include, ok = compile("include", *conf.Include, true); !ok {
			return nil, warnings
		}
	}
	var exclude []rule
	if conf.Exclude != nil {
		exclude, _ = compile("exclude", *conf.Exclude, false)
	}
	for _, d := range pyrightDefaultExcludes {
		exclude = append(exclude, rule{pyrightRegexp(path.Join(dir, d)), fmt.Sprintf("pyright's default exclude %q", d)})
	}
	if conf.Ignore != nil {
		ig, _ := compile("ignore", *conf.Ignore, false)
		exclude = append(exclude, ig...)
	}
	includeWhy := fmt.Sprintf("%s include = %s", where, quoteList(derefOr(conf.Include)))
	return &Scope{File: file, test: func(rel string) string {
		subject := "/" + rel
		if include != nil {
			in := false
			for _, r := range include {
				if r.re.MatchString(subject) {
					in = true
					break
				}
			}
			if !in {
				return includeWhy
			}
		}
		for _, r := range exclude {
			if r.re.MatchString(subject) {
				return r.why
			}
		}
		return ""
	}}, warnings
}

func derefOr(p *[]string) []string {
	if p == nil {
		return nil
	}
	return *p
}

// pyrightRegexp is pyright's matcher of a path spec (a cleaned slash path
// relative to the root, "" for the root), for a subject written "/" +
// its path relative to the root: `**` is any number of directories, `*`
// any characters within a segment, `?` one; the spec matches a path
// equal to it or below it.
func pyrightRegexp(spec string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^(")
	if spec != "" {
		for _, c := range strings.Split(spec, "/") {
			if c == "**" {
				b.WriteString("(/[^/]+)*?")
				continue
			}
			b.WriteByte('/')
			for _, r := range c {
				switch r {
				case '*':
					b.WriteString("[^/]*")
				case '?':
					b.WriteString("[^/]")
				default:
					b.WriteString(regexp.QuoteMeta(string(r)))
				}
			}
		}
	}
	b.WriteString(")($|/)")
	return regexp.MustCompile(b.String())
}

// jsonError says where a JSON decoding error is: its line, when it has
// an offset.
func jsonError(src []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) && int(se.Offset) <= len(src) {
		return fmt.Sprintf("line %d: %v", lineOf(src, max(int(se.Offset)-1, 0)), err)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s must be a list of strings (line %d)", te.Field, lineOf(src, min(int(te.Offset), len(src))))
	}
	return err.Error()
}

// tomlError says where a TOML decoding error is and, for a value of the
// wrong type, which key wants what (not the Go type it decodes into).
func tomlError(err error) string {
	what := err.Error()
	if strings.Contains(what, "cannot decode") {
		what = "[tool.pyright] include, exclude and ignore must be lists of strings"
		for _, key := range []string{"Include", "Exclude", "Ignore"} {
			if strings.Contains(err.Error(), "pyrightConfig."+key+" ") {
				what = fmt.Sprintf("[tool.pyright] %s must be a list of strings", strings.ToLower(key))
			}
		}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf("line %d, column %d: %s", row, col, what)
	}
	return what
}
