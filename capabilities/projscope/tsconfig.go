package projscope

// This file reads TypeScript's scope: the files of the project that
// tsconfig.json (or jsconfig.json) at the root states, with the files,
// include and exclude its extends chain gives it and the projects it
// references, as tsc -b would build them.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// maxTSConfigs bounds the configuration files one scope reads (extends
// and references, followed transitively).
const maxTSConfigs = 32

// tsFile is a tsconfig.json as written.
type tsFile struct {
	Extends    json.RawMessage `json:"extends"`
	Files      *[]string       `json:"files"`
	Include    *[]string       `json:"include"`
	Exclude    *[]string       `json:"exclude"`
	References []struct {
		Path string `json:"path"`
	} `json:"references"`
	CompilerOptions struct {
		OutDir         *string `json:"outDir"`
		DeclarationDir *string `json:"declarationDir"`
		AllowJs        *bool   `json:"allowJs"`
	} `json:"compilerOptions"`
}

// tsProject is one project's scope, its extends chain applied: each list
// with the directory it is relative to.
type tsProject struct {
	file                 string // its path relative to the root
	files, include       *[]string
	exclude              *[]string
	filesDir, includeDir string
	excludeDir           string
	outDir, declDir      *string
	outDirAt, declDirAt  string
	allowJs              *bool
	references           []string // the referenced configuration files, relative to the root
}

// tsReader reads a scope's configuration files, counting them.
type tsReader struct {
	read     ReadFunc
	n        int
	warnings []string
}

// TSConfig reads the scope of the TypeScript project in the directory dir
// (a slash path relative to the root, "" or "." for the root; the files
// the scope tests are named relative to the root): its tsconfig.json, else jsconfig.json (whose allowJs is true by default);
// nil when there is neither. Its files are those its `files` lists and
// those an `include` pattern takes in (all files when neither is set)
// that no `exclude` pattern leaves out (without exclude: node_modules,
// bower_components, jspm_packages and the outDir); JavaScript files only
// with allowJs. `extends` (a relative path, or a package under
// node_modules) gives the lists the file does not set, relative to the
// file that sets them; the projects `references` names add their files
// (a solution file with "files": [] holds only theirs). A file that
// cannot be parsed gives no scope and a warning; a base or a reference
// that cannot be read is left out with a warning, and so is a pattern
// TypeScript would refuse.
func TSConfig(read ReadFunc, dir string) (*Scope, []string) {
	r := &tsReader{read: read}
	file := path.Join(dir, "tsconfig.json")
	root, err := r.project(file, map[string]bool{})
	if errors.Is(err, fs.ErrNotExist) {
		file = path.Join(dir, "jsconfig.json")
		if root, err = r.project(file, map[string]bool{}); err == nil && root.allowJs == nil {
			yes := true
			root.allowJs = &yes
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, append(r.warnings, fmt.Sprintf("%s; the project's files, include and exclude are not used: every TypeScript and JavaScript file a walk meets is checked", err))
	}
	projects := []*tsProject{root}
	seen := map[string]bool{file: true}
	for i := 0; i < len(projects); i++ {
		for _, ref := range projects[i].references {
			if seen[ref] {
				continue
			}
			seen[ref] = true
			p, err := r.project(ref, map[string]bool{})
			if err != nil {
				r.warnings = append(r.warnings, fmt.Sprintf("%s references %s, which cannot be used (%v); its files are not in the project's scope", projects[i].file, ref, err))
				continue
			}
			projects = append(projects, p)
		}
	}
	matchers := make([]*tsMatcher, len(projects))
	var whys []string
	for i, p := range projects {
		matchers[i] = r.matcher(p)
		if !matchers[i].empty() {
			whys = append(whys, matchers[i].describe())
		}
	}
	all := fmt.Sprintf("none of the projects of %s takes it in (%s)", file, strings.Join(whys, "; "))
	if len(whys) == 0 {
		all = fmt.Sprintf("%s and the projects it references take in no file", file)
	}
	return &Scope{File: file, test: func(rel string) string {
		if len(matchers) == 1 {
			return matchers[0].leaves(rel)
		}
		for _, m := range matchers {
			if m.leaves(rel) == "" {
				return ""
			}
		}
		return all
	}}, r.warnings
}

// project reads the configuration file at rel (relative to the root),
// its extends chain applied; seen guards the chain against a loop.
func (r *tsReader) project(rel string, seen map[string]bool) (*tsProject, error) {
	if r.n++; r.n > maxTSConfigs {
		return nil, fmt.Errorf("%s: more than %d configuration files are extended or referenced; the rest are not read", rel, maxTSConfigs)
	}
	if seen[rel] {
		return nil, fmt.Errorf("%s extends itself, through its bases", rel)
	}
	seen[rel] = true
	data, err := r.read(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s cannot be read: %w", rel, err)
	}
	std, err := StandardJSON(data)
	var f tsFile
	if err == nil {
		err = json.Unmarshal(std, &f)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %s", rel, jsonError(std, err))
	}
	dir := path.Dir(rel)
	if dir == "." {
		dir = ""
	}
	p := &tsProject{file: rel}
	// The bases first, later ones over earlier ones, then the file's own
	// settings over theirs.
	for _, b := range extendsList(f.Extends) {
		base, ok := r.resolveBase(dir, b)
		if !ok {
			if strings.HasPrefix(b, ".") || strings.HasPrefix(b, "/") {
				r.warnings = append(r.warnings, fmt.Sprintf("%s extends %q, which is not under the root: what it sets is not used", rel, b))
			}
			continue // a package not installed: it rarely sets files
		}
		bp, err := r.project(base, seen)
		if err != nil {
			r.warnings = append(r.warnings, fmt.Sprintf("%s extends %s, which cannot be used (%v): what it sets is not used", rel, base, err))
			continue
		}
		p.inherit(bp)
	}
	if f.Files != nil {
		p.files, p.filesDir = f.Files, dir
	}
	if f.Include != nil {
		p.include, p.includeDir = f.Include, dir
	}
	if f.Exclude != nil {
		p.exclude, p.excludeDir = f.Exclude, dir
	}
	if o := f.CompilerOptions; o.OutDir != nil {
		p.outDir, p.outDirAt = o.OutDir, dir
	}
	if o := f.CompilerOptions; o.DeclarationDir != nil {
		p.declDir, p.declDirAt = o.DeclarationDir, dir
	}
	if f.CompilerOptions.AllowJs != nil {
		p.allowJs = f.CompilerOptions.AllowJs
	}
	p.references = nil
	for _, ref := range f.References {
		target, ok := relSpec(dir, ref.Path)
		if !ok {
			r.warnings = append(r.warnings, fmt.Sprintf("%s references %q, which is not under the root: its files are not in the project's scope", rel, ref.Path))
			continue
		}
		if !strings.HasSuffix(target, ".json") {
			target = path.Join(target, "tsconfig.json")
		}
		p.references = append(p.references, target)
	}
	return p, nil
}

// inherit takes what the base b sets.
func (p *tsProject) inherit(b *tsProject) {
	if b.files != nil {
		p.files, p.filesDir = b.files, b.filesDir
	}
	if b.include != nil {
		p.include, p.includeDir = b.include, b.includeDir
	}
	if b.exclude != nil {
		p.exclude, p.excludeDir = b.exclude, b.excludeDir
	}
	if b.outDir != nil {
		p.outDir, p.outDirAt = b.outDir, b.outDirAt
	}
	if b.declDir != nil {
		p.declDir, p.declDirAt = b.declDir, b.declDirAt
	}
	if b.allowJs != nil {
		p.allowJs = b.allowJs
	}
}

// extendsList is extends as a list: a string, or an array of them.
func extendsList(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}

// resolveBase finds the file extends names, from the directory dir: a
// relative path (".json" added when it has no extension and the file
// without it is missing), or a package's file under a node_modules of
// dir or a directory above it.
func (r *tsReader) resolveBase(dir, spec string) (string, bool) {
	exists := func(p string) bool { _, err := r.read(p); return err == nil }
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".." {
		p, ok := relSpec(dir, spec)
		if !ok {
			return "", false
		}
		if !exists(p) && !strings.HasSuffix(p, ".json") {
			p += ".json"
		}
		return p, true
	}
	if strings.HasPrefix(spec, "/") {
		return "", false
	}
	for d := dir; ; d = path.Dir(d) {
		if d == "." {
			d = ""
		}
		base := path.Join(d, "node_modules", spec)
		for _, c := range []string{base, base + ".json", path.Join(base, "tsconfig.json")} {
			if exists(c) {
				return c, true
			}
		}
		if d == "" {
			return "", false
		}
	}
}

// tsMatcher is one project's scope, compiled.
type tsMatcher struct {
	file           string
	files          map[string]bool
	include        []tsSpec
	includeRaw     []string
	filesOnly      bool // files is set and include is not: only the files
	exclude        []tsSpec
	excludeDefault bool
	allowJs        bool
}

// matcher compiles p's scope, warning about the patterns it cannot use.
func (r *tsReader) matcher(p *tsProject) *tsMatcher {
	m := &tsMatcher{file: p.file, files: map[string]bool{}, allowJs: p.allowJs != nil && *p.allowJs}
	fileDir := path.Dir(p.file)
	if fileDir == "." {
		fileDir = ""
	}
	if p.files != nil {
		for _, f := range *p.files {
			if rel, ok := relSpec(p.filesDir, f); ok {
				m.files[rel] = true
			}
		}
	}
	switch {
	case p.include != nil:
		m.includeRaw = *p.include
		for _, raw := range *p.include {
			s, ok := newTSSpec(p.includeDir, raw, false)
			if !ok {
				r.warnings = append(r.warnings, fmt.Sprintf("%s: include %q ends in ** or is not under the root, which TypeScript does not take; it is not used", p.file, raw))
				continue
			}
			m.include = append(m.include, s)
		}
	case p.files != nil:
		m.filesOnly = true
	default:
		s, _ := newTSSpec(fileDir, "**/*", false)
		m.include, m.includeRaw = []tsSpec{s}, nil
	}
	excludes, dir := derefOr(p.exclude), p.excludeDir
	if p.exclude == nil {
		m.excludeDefault = true
		dir = fileDir
		excludes = slices.Clone(commonPackageFolders)
	}
	for _, raw := range excludes {
		if s, ok := newTSSpec(dir, raw, true); ok {
			m.exclude = append(m.exclude, s)
		} else {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: exclude %q is not under the root; it is not used", p.file, raw))
		}
	}
	if p.exclude == nil {
		for _, d := range []struct {
			v  *string
			at string
		}{{p.outDir, p.outDirAt}, {p.declDir, p.declDirAt}} {
			if d.v != nil && *d.v != "" {
				if s, ok := newTSSpec(d.at, *d.v, true); ok {
					m.exclude = append(m.exclude, s)
				}
			}
		}
	}
	return m
}

// empty reports whether the project takes in no file of its own (a
// solution file: "files": [] and references).
func (m *tsMatcher) empty() bool {
	return len(m.files) == 0 && len(m.include) == 0
}

// describe says what the project takes in: `tsconfig.json include =
// ["src"]`.
func (m *tsMatcher) describe() string {
	switch {
	case m.filesOnly:
		return fmt.Sprintf("%s files (%d) and no include", m.file, len(m.files))
	case m.includeRaw == nil:
		return fmt.Sprintf("%s sets neither files nor include, so it takes in \"**/*\", which enters no directory whose name starts with \".\" and no node_modules", m.file)
	}
	return fmt.Sprintf("%s include = %s", m.file, quoteList(m.includeRaw))
}

// leaves says why the project leaves rel out, "" when it takes it in.
func (m *tsMatcher) leaves(rel string) string {
	if m.files[rel] {
		return ""
	}
	included := slices.ContainsFunc(m.include, func(s tsSpec) bool { return s.includes(rel) })
	if !included {
		return m.describe()
	}
	for _, s := range m.exclude {
		if s.excludes(rel) {
			if m.excludeDefault {
				return fmt.Sprintf("%s sets no exclude, so %q is excluded", m.file, s.raw)
			}
			return fmt.Sprintf("%s exclude %q", m.file, s.raw)
		}
	}
	if isJS(rel) && !m.allowJs {
		return fmt.Sprintf("%s does not set compilerOptions.allowJs, so its project holds no JavaScript file", m.file)
	}
	return ""
}

// isJS reports whether rel is a JavaScript file, which a project holds
// only with allowJs.
func isJS(rel string) bool {
	switch path.Ext(rel) {
	case ".js", ".jsx", ".mjs", ".cjs":
		return true
	}
	return false
}
