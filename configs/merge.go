package configs

// This file defines the merge of configuration files in layers (the
// embedded defaults, the user's file, the project's file), key by key, and
// the bookkeeping that lets errors point into the file that wrote a key.

import (
	"maps"
	"reflect"
	"strings"
)

// merged is a merged configuration and where each part of it came from.
type merged struct {
	cfg  *Config
	base *source
	// from maps an entry ("drivers.gopls"), a key of one
	// ("drivers.gopls.command") or a limit ("limits.max_diagnostics") to
	// the file that wrote it, when that is not base.
	from map[string]*source
	// replaced holds the entries that a later file replaced whole (a
	// driver whose type it changed).
	replaced map[string]bool
}

// merge lays each of overs over base in order: an entry a later file
// writes overrides the keys it writes and keeps the others (a driver
// table that changes the type replaces the entry whole), limits and the
// mcp keys are overridden key by key, entries with disabled = true are then removed,
// and a removed driver is taken out of every language's lists.
func merge(base *source, overs ...*source) *merged {
	m := &merged{
		cfg:      &Config{Limits: base.cfg.Limits, MCP: base.cfg.MCP},
		base:     base,
		from:     map[string]*source{},
		replaced: map[string]bool{},
	}
	m.cfg.Languages = maps.Clone(base.cfg.Languages)
	m.cfg.Drivers = maps.Clone(base.cfg.Drivers)
	if m.cfg.Languages == nil {
		m.cfg.Languages = map[string]*Language{}
	}
	if m.cfg.Drivers == nil {
		m.cfg.Drivers = map[string]*Driver{}
	}
	for _, over := range overs {
		overlay(m, "languages", m.cfg.Languages, over.cfg.Languages, over, nil)
		overlay(m, "drivers", m.cfg.Drivers, over.cfg.Drivers, over, retyped)
		// [limits] and [mcp]: each key a file writes overrides alone.
		m.overlayKeys(reflect.ValueOf(&m.cfg.Limits).Elem(), reflect.ValueOf(over.cfg.Limits), "limits", over)
		m.overlayKeys(reflect.ValueOf(&m.cfg.MCP).Elem(), reflect.ValueOf(over.cfg.MCP), "mcp", over)
	}
	for name, l := range m.cfg.Languages {
		if l.Disabled {
			delete(m.cfg.Languages, name)
		}
	}
	removed := map[string]bool{}
	for name, d := range m.cfg.Drivers {
		if d.Disabled {
			removed[name] = true
			delete(m.cfg.Drivers, name)
		}
	}
	for name, d := range m.cfg.Drivers {
		if testTypes[d.Type] && !d.RunsRepositoryCode {
			// A test driver runs the repository's tests by its type,
			// whatever a file says: trust decides, as for the defaults'.
			c := *d
			c.RunsRepositoryCode = true
			m.cfg.Drivers[name] = &c
		}
	}
	if len(removed) > 0 {
		for name, l := range m.cfg.Languages {
			c := *l
			c.Format, c.Lint, c.Check, c.Test = without(l.Format, removed), without(l.Lint, removed), without(l.Check, removed), without(l.Test, removed)
			c.Intelligence = without(l.Intelligence, removed)
			m.cfg.Languages[name] = &c
		}
	}
	return m
}

// testTypes are the driver types that run the repository's tests.
var testTypes = map[string]bool{"gotest": true, "pytest": true, "vitest": true}

// retyped reports whether a later driver table changes the driver's type:
// a driver of another type shares nothing with the one it replaces.
func retyped(old, over *Driver) bool {
	return over.Type != "" && over.Type != old.Type
}

// overlay puts over's entries of one table into dst, recording that they
// come from src: a new entry whole, and over an existing one (unless
// whole says to replace it) each key src writes.
func overlay[T any](m *merged, table string, dst, over map[string]*T, src *source, whole func(old, over *T) bool) {
	for name, v := range over {
		path := fieldPath(table, name)
		old, ok := dst[name]
		if !ok || (whole != nil && whole(old, v)) {
			if ok {
				m.replaced[path] = true
			}
			dst[name] = v
			m.from[path] = src
			continue
		}
		c := *old
		m.overlayKeys(reflect.ValueOf(&c).Elem(), reflect.ValueOf(v).Elem(), path, src)
		dst[name] = &c
	}
}

// overlayKeys copies into dst each field of val whose key src writes
// under path. A driver's output parsers exclude each other: writing
// errorformat drops an inherited json, and writing json an inherited
// errorformat.
func (m *merged) overlayKeys(dst, val reflect.Value, path string, src *source) {
	wrote := map[string]bool{}
	for i := 0; i < dst.NumField(); i++ {
		key := tomlKey(dst.Type().Field(i))
		if kp := path + "." + keyPart(key); src.idx.has(kp) {
			dst.Field(i).Set(val.Field(i))
			m.from[kp] = src
			wrote[key] = true
		}
	}
	if d, ok := dst.Addr().Interface().(*Driver); ok {
		switch {
		case wrote["errorformat"] && !wrote["json"]:
			d.JSON = nil
		case wrote["json"] && !wrote["errorformat"]:
			d.Errorformat = nil
		}
	}
}

// without returns list with the removed drivers taken out of each entry:
// out of the alternatives that name them, an alternative left with no
// driver is dropped, and so is an entry left with no alternative. An
// entry that does not parse is kept for validation to report.
func without(list []string, removed map[string]bool) []string {
	var out []string
	for _, entry := range list {
		slot, err := ParseSlot(entry)
		if err != nil {
			out = append(out, entry)
			continue
		}
		var kept Slot
		for _, alt := range slot {
			var names []string
			for _, n := range alt {
				if !removed[n] {
					names = append(names, n)
				}
			}
			if len(names) > 0 {
				kept = append(kept, names)
			}
		}
		switch {
		case len(kept) == len(slot) && len(kept.Drivers()) == len(slot.Drivers()):
			out = append(out, entry) // untouched: keep it as written
		case len(kept) > 0:
			out = append(out, kept.String())
		}
	}
	if list != nil && out == nil {
		out = []string{}
	}
	return out
}

// source returns the file that wrote path: the one recorded for path or
// its nearest ancestor, else base.
func (m *merged) source(path string) *source {
	for p := path; p != ""; p = parent(p) {
		if s, ok := m.from[p]; ok {
			return s
		}
	}
	return m.base
}

// wrote reports whether src wrote the entry at path, or any key of it.
func (m *merged) wrote(path string, src *source) bool {
	if m.source(path) == src {
		return true
	}
	for p, s := range m.from {
		if s == src && (p == path || strings.HasPrefix(p, path+".")) {
			return true
		}
	}
	return false
}

// errorAt locates an error about path in the file that wrote it.
func (m *merged) errorAt(path, msg string) *Error {
	s := m.source(path)
	at := s.idx.find(path)
	return &Error{File: s.name, Line: at.line, Column: at.col, Field: path, Msg: msg}
}

// listKeys are a language's lists of drivers.
var listKeys = []string{"format", "lint", "check", "test", "intelligence"}

// markDefaulted sets each language's Defaulted (the lists that the
// embedded defaults wrote and no other file did) and each driver's (the
// defaults define it, and no other file wrote a key of it that decides
// what runs).
func (m *merged) markDefaulted() {
	for name, l := range m.cfg.Languages {
		var d []string
		for _, key := range listKeys {
			if m.source(fieldPath("languages", name, key)).name == DefaultsName {
				d = append(d, key)
			}
		}
		c := *l
		c.Defaulted = d
		m.cfg.Languages[name] = &c
	}
	for name, dr := range m.cfg.Drivers {
		c := *dr
		c.Defaulted = true
		for _, key := range append([]string{""}, ExecKeys...) {
			path := fieldPath("drivers", name)
			if key != "" {
				path = fieldPath("drivers", name, key)
			}
			if m.source(path).name != DefaultsName {
				c.Defaulted = false
			}
		}
		m.cfg.Drivers[name] = &c
	}
}
