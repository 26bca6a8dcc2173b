package configs

// This file defines the merge of a project's file over the defaults and
// the bookkeeping that lets errors point into the file that wrote a key.

import (
	"maps"
	"reflect"
)

// merged is a merged configuration and where each part of it came from.
type merged struct {
	cfg  *Config
	base *source
	// from maps an entry ("languages.go", "drivers.gopls") or a limit
	// ("limits.max_diagnostics") to the file that wrote it, when that is
	// not base.
	from map[string]*source
	// replaced holds the entries of the project file that replaced a
	// default entry of the same name.
	replaced map[string]bool
	// disabled maps each entry removed with disabled = true to the file
	// that removed it.
	disabled map[string]*source
}

// merge lays over (nil: none) over base: entries replace entries of the
// same name whole, limits are overridden key by key, and entries with
// disabled = true are then removed.
func merge(base, over *source) *merged {
	m := &merged{
		cfg:      &Config{Limits: base.cfg.Limits},
		base:     base,
		from:     map[string]*source{},
		replaced: map[string]bool{},
		disabled: map[string]*source{},
	}
	m.cfg.Languages = maps.Clone(base.cfg.Languages)
	m.cfg.Drivers = maps.Clone(base.cfg.Drivers)
	if m.cfg.Languages == nil {
		m.cfg.Languages = map[string]*Language{}
	}
	if m.cfg.Drivers == nil {
		m.cfg.Drivers = map[string]*Driver{}
	}
	if over != nil {
		overlay(m, "languages", m.cfg.Languages, over.cfg.Languages, over)
		overlay(m, "drivers", m.cfg.Drivers, over.cfg.Drivers, over)
		m.overlayLimits(over)
	}
	for name, l := range m.cfg.Languages {
		if l.Disabled {
			m.disabled[fieldPath("languages", name)] = m.source(fieldPath("languages", name))
			delete(m.cfg.Languages, name)
		}
	}
	for name, d := range m.cfg.Drivers {
		if d.Disabled {
			m.disabled[fieldPath("drivers", name)] = m.source(fieldPath("drivers", name))
			delete(m.cfg.Drivers, name)
		}
	}
	return m
}

// overlay puts over's entries of one table into dst, recording that they
// come from src.
func overlay[T any](m *merged, table string, dst, over map[string]T, src *source) {
	for name, v := range over {
		path := fieldPath(table, name)
		if _, ok := dst[name]; ok {
			m.replaced[path] = true
		}
		dst[name] = v
		m.from[path] = src
	}
}

// overlayLimits copies each limit that src writes.
func (m *merged) overlayLimits(src *source) {
	dst := reflect.ValueOf(&m.cfg.Limits).Elem()
	val := reflect.ValueOf(src.cfg.Limits)
	for i := 0; i < dst.NumField(); i++ {
		path := fieldPath("limits", tomlKey(dst.Type().Field(i)))
		if src.idx.has(path) {
			dst.Field(i).Set(val.Field(i))
			m.from[path] = src
		}
	}
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

// errorAt locates an error about path in the file that wrote it.
func (m *merged) errorAt(path, msg string) *Error {
	s := m.source(path)
	at := s.idx.find(path)
	return &Error{File: s.name, Line: at.line, Column: at.col, Field: path, Msg: msg}
}
