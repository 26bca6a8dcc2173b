package configs

// This file defines the loader's core: [Default], strict decoding with
// located errors, and the merge of a project file over the defaults
// ([LoadProject] reads the files).

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// ProjectFile is the name of a project's configuration file, at the root.
const ProjectFile = ".devbroker.toml"

// DefaultsName is the name errors give the embedded defaults.
const DefaultsName = "configs/defaults.toml"

// Documented defaults that the loader fills in.
const (
	// DefaultTimeout bounds one run of a driver without a timeout. It is
	// the one definition: drivers built without a configuration use it
	// too. A cold gopls loads its module within it.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxDiagnostics is Limits.MaxDiagnostics when it is 0.
	DefaultMaxDiagnostics = 200
	// DefaultMaxProjectServers is Driver.MaxProjectServers when it is 0.
	DefaultMaxProjectServers = 8
)

//go:embed defaults.toml
var defaultsTOML []byte

// Default returns the embedded defaults alone, decoded strictly, validated
// and with the documented defaults filled in.
func Default() (*Config, error) {
	m, err := load(&source{name: DefaultsName, data: defaultsTOML})
	if err != nil {
		return nil, err
	}
	return m.cfg, nil
}

// source is one configuration file and, once decoded, its content and
// the positions of its keys.
type source struct {
	name string
	data []byte
	cfg  *Config
	idx  index
}

// load decodes base and each of overs that is not decoded yet, merges
// overs over base in order, validates and fills in defaults.
func load(base *source, overs ...*source) (*merged, error) {
	var errs ErrorList
	for _, s := range append([]*source{base}, overs...) {
		if s.cfg == nil {
			errs = append(errs, s.decode()...)
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	m := merge(base, overs...)
	if err := m.validate().Err(); err != nil {
		return nil, err
	}
	fillDefaults(m.cfg)
	m.markDefaulted()
	return m, nil
}

// decode decodes s.data strictly into s.cfg and indexes its positions.
func (s *source) decode() ErrorList {
	var cfg Config
	dec := toml.NewDecoder(bytes.NewReader(s.data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return s.decodeErrors(err)
	}
	s.cfg = &cfg
	s.idx = buildIndex(s.data)
	return nil
}

// decodeErrors turns go-toml's errors into located ones.
func (s *source) decodeErrors(err error) ErrorList {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var l ErrorList
		idx := buildIndex(s.data)
		for i := range strict.Errors {
			e := &strict.Errors[i]
			line, col := e.Position()
			key := idx.keyAt(e.Key(), line, col)
			l = append(l, &Error{File: s.name, Line: line, Column: col, Field: fieldPath(key...), Msg: unknownKey(key)})
		}
		return l
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		key := buildIndex(s.data).keyAt(de.Key(), line, col)
		return ErrorList{{File: s.name, Line: line, Column: col, Field: fieldPath(key...), Msg: decodeMessage(de, key)}}
	}
	return ErrorList{s.unlocated(err)}
}

// unlocated places an error that go-toml gave without a position: a
// duration written as a number or a boolean. The first duration key whose
// value is not a string is the culprit.
func (s *source) unlocated(err error) *Error {
	e := &Error{File: s.name, Msg: err.Error()}
	for path, at := range buildIndex(s.data) {
		t, ok := schemaAt(splitPath(path))
		if ok && t == durationType && !quotedAt(s.data, at) {
			if e.Line == 0 || at.line < e.Line {
				e.Line, e.Column, e.Field = at.line, at.col, path
			}
		}
	}
	return e
}

// quotedAt reports whether the value of the key at position at is a
// string.
func quotedAt(data []byte, at pos) bool {
	lines := bytes.Split(data, []byte("\n"))
	if at.line < 1 || at.line > len(lines) {
		return false
	}
	line := lines[at.line-1]
	if at.col-1 > len(line) {
		return false
	}
	_, v, ok := bytes.Cut(line[at.col-1:], []byte("="))
	v = bytes.TrimSpace(v)
	return ok && len(v) > 0 && (v[0] == '"' || v[0] == '\'')
}

// splitPath undoes fieldPath for paths without array indexes (an index
// ends up in the last part, which the schema then does not find).
func splitPath(path string) []string {
	var parts []string
	for path != "" {
		p := parent(path)
		last := strings.TrimPrefix(path[len(p):], ".")
		if u, err := strconv.Unquote(last); err == nil {
			last = u
		}
		parts = append([]string{last}, parts...)
		path = p
	}
	return parts
}

// unknownKey says a key is not in the schema and lists what is.
func unknownKey(key []string) string {
	if len(key) == 0 {
		return "unknown key"
	}
	t, ok := schemaAt(key[:len(key)-1])
	if !ok {
		return "unknown key"
	}
	keys := keysOf(t)
	if len(keys) == 0 {
		return "unknown key"
	}
	return "unknown key; this table takes " + strings.Join(keys, ", ")
}

var mismatch = regexp.MustCompile(`^toml: cannot (?:decode TOML (\w+)|store (?:a|an) ([\w ]+?)) in`)

// decodeMessage rewrites go-toml's Go-flavoured type mismatches as what the
// key wants; other messages lose only their "toml: " prefix.
func decodeMessage(de *toml.DecodeError, key []string) string {
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	m := mismatch.FindStringSubmatch(de.Error())
	if m == nil {
		return msg
	}
	t, ok := schemaAt(key)
	if !ok {
		return msg
	}
	got := m[1] + m[2]
	if t.Kind() == reflect.Map {
		return fmt.Sprintf("want a table of named entries, not %s", article(got))
	}
	return fmt.Sprintf("want %s, not %s", tomlType(t), article(got))
}

func article(s string) string {
	if s == "" {
		return "this"
	}
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
