package configs

// This file defines [LoadProject]: a root's configuration together with
// what trusting it means, the project file's hash and the commands it
// names.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Project is a root's configuration as loaded, with what the user trusts
// when trusting it.
type Project struct {
	// Config is the merged configuration, every entry of it: it applies
	// only once the user trusts the root.
	Config *Config
	// Untrusted is what applies until the user trusts the root: the
	// embedded defaults and the user's configuration, none of the project
	// file. It is Config when the root has no project file.
	Untrusted *Config
	// File is the project file's path; "" when the root has none and the
	// defaults alone apply.
	File string
	// Hash is the SHA-256 of the project file's bytes, "sha256:<hex>"
	// ("" without a file); with configuration files of the user's tools
	// inside the root, of those as well. Trust is given to this content.
	Hash string
	// Commands are the project's drivers that name what runs, sorted by
	// name: what trusting the root lets run.
	Commands []Command
	// HomeFiles are the configuration files of the user's tools that lie
	// inside the root: the project's, as far as trust goes.
	HomeFiles []HomeFile
	// InertEnv is the environment that makes the tools ignore those files
	// until the user trusts the root (GOENV=off, ...): every driver gets
	// it while the root is untrusted.
	InertEnv []string
	// Warnings say what of the configuration could not be used, and why
	// (a user configuration that cannot be read).
	Warnings []string
	// Invalid is why the project's own layers (its .devbroker.toml, and
	// configuration files of the user's tools inside the root) do not
	// load: a syntax error, an unknown key. Config is then Untrusted. An
	// untrusted root works on without them, and says so; a trusted root
	// must not (the error is the answer).
	Invalid error
}

// Command is one driver of a project file that names what runs: a driver
// of type external or lsp that the defaults do not have, or whose keys
// that decide what runs ([ExecKeys]) differ from the default driver of
// the same name.
type Command struct {
	// Driver is the driver's name.
	Driver string
	// Line is where the file defines the driver.
	Line int
	// Keys are the keys of [ExecKeys] that differ from the default
	// driver's; nil when the defaults have no driver of this name.
	Keys []string
	// Runs lists the argvs the driver would run: command, fix_command and
	// version_command, each that is set, in that order, by key.
	Runs []Run
}

// Run is one command a driver would run.
type Run struct {
	Key  string   `json:"key"`
	Argv []string `json:"argv"`
}

// ExecKeys are the keys of an external or lsp driver that decide what
// runs: the program and its arguments, where and with what environment,
// what it is given to read, and a language server's settings (which can
// name programs: an interpreter's path, build flags). devbroker trust
// names the ones a project driver changes from the default driver's, so
// the user sees what trusting the file changes; trust itself is for the
// whole file (see the package documentation).
var ExecKeys = []string{"type", "command", "fix_command", "version_command", "range_args", "dir", "env", "input", "per_file", "smoke", "settings"}

// LoadProject returns the configuration for the project at root: the
// embedded defaults, the user's configuration ([UserFile]) when it
// exists, and root's ProjectFile when it exists, each merged over the one
// before (see the package documentation for the rules). A missing file
// is no error; an unreadable one is, and an invalid project file is
// [Project.Invalid]: every problem an [ErrorList] of [*Error] values that
// name file, line and field. It also says what trusting the root means:
// the project file's hash and the commands it names, and the
// configuration that applies until the user trusts it.
//
// Configuration files of the user's tools that lie inside the root
// ([HomeFilesIn]) count as the project's: devbroker's own user file joins
// the project's layers (applied only once trusted), the others are made
// inert until then ([Project.InertEnv]; also those that do not exist yet,
// as one may be written while a server runs), and all of them join the
// content that trust is given to ([Project.Hash]).
func LoadProject(root string) (*Project, error) {
	user, err := readUserFile()
	var unreadable *unreadableUserFile
	var warnings []string
	if errors.As(err, &unreadable) {
		warnings = append(warnings, unreadable.Error())
	} else if err != nil {
		return nil, err
	}
	home := HomeFilesIn(root)
	var userInside *source
	if user != nil && slices.ContainsFunc(home, func(h HomeFile) bool { return h.Path == user.name }) {
		userInside, user = user, nil
	}
	data, err := readProjectFile(root)
	noFile := errors.Is(err, fs.ErrNotExist)
	if err != nil && !noFile {
		return nil, err
	}
	base, err := loadLayers(user, nil)
	if err != nil {
		return nil, err
	}
	hash, err := trustHash(data, !noFile, home)
	if err != nil {
		return nil, err
	}
	p := &Project{Config: base.cfg, Untrusted: base.cfg, Hash: hash, HomeFiles: home, Warnings: warnings}
	for _, h := range homePathsIn(root) { // existing or not: one may appear
		if h.Inert != "" && !slices.Contains(p.InertEnv, h.Inert) {
			p.InertEnv = append(p.InertEnv, h.Inert)
		}
	}
	if noFile && userInside == nil {
		return p, nil
	}
	// The layers that apply once trusted: the defaults and the user's file
	// (outside the root), the user's file inside the root, the project's.
	var project *source
	layers := baseLayers(copySource(user))
	if userInside != nil {
		if !inherits(userInside.data) {
			layers = nil
		}
		layers = append(layers, userInside)
	}
	if !noFile {
		project = &source{name: ProjectFile, data: data}
		if !inherits(data) {
			layers = nil
		}
		layers = append(layers, project)
		p.File = filepath.Join(root, ProjectFile)
	}
	m, err := load(layers[0], layers[1:]...)
	if err != nil {
		// The project's own layers do not load: until the root is
		// trusted they would not apply anyway, so the caller decides
		// (a warning then, an error once trusted).
		p.Invalid = err
		return p, nil
	}
	p.Config = m.cfg
	if userInside != nil {
		defaults, err := loadLayers(nil, nil)
		if err != nil {
			return nil, err
		}
		p.Commands = append(p.Commands, m.commands(userInside, defaults.cfg.Drivers)...)
	}
	if project != nil {
		p.Commands = append(p.Commands, m.commands(project, base.cfg.Drivers)...)
	}
	sort.SliceStable(p.Commands, func(i, j int) bool { return p.Commands[i].Driver < p.Commands[j].Driver })
	return p, nil
}

// FileHash is the hash of root's project file as [Project.Hash] gives it:
// "" when the root has none (and no configuration file of the user's
// tools lies inside it).
func FileHash(root string) (string, error) {
	data, err := readProjectFile(root)
	noFile := errors.Is(err, fs.ErrNotExist)
	if err != nil && !noFile {
		return "", err
	}
	return trustHash(data, !noFile, HomeFilesIn(root))
}

// trustHash is the hash trust is given to: the project file's bytes
// (data, when hasFile), and with configuration files of the user's tools
// inside the root, each of those too.
func trustHash(data []byte, hasFile bool, home []HomeFile) (string, error) {
	if len(home) == 0 {
		if !hasFile {
			return "", nil
		}
		return hashOf(data), nil
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %t %d\n", ProjectFile, hasFile, len(data))
	h.Write(data)
	for _, f := range home {
		b, err := os.ReadFile(f.Path)
		if err != nil {
			return "", fmt.Errorf("reading %s (%s), which lies inside the root: %w", f.Path, f.What, err)
		}
		fmt.Fprintf(h, "\n%s %d\n", f.Path, len(b))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// readProjectFile reads root's project file. A file that is a symbolic
// link is read only when it resolves inside root: one that leads out is
// refused, and nothing of what it points to is read. An error wraps
// [fs.ErrNotExist] only when there is no file (a dangling link is none).
func readProjectFile(root string) ([]byte, error) {
	file := filepath.Join(root, ProjectFile)
	fi, err := os.Lstat(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading the project configuration: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		realRoot, err := filepath.EvalSymlinks(root)
		if err != nil {
			return nil, fmt.Errorf("reading the project configuration: resolving the root: %w", err)
		}
		target, err := filepath.EvalSymlinks(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		rel, rerr := filepath.Rel(realRoot, target)
		if err != nil || rerr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("%s is a symbolic link that leads out of the root (or cannot be resolved): the project configuration must be a file inside the root; replace the link with a copy of the file", file)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the project configuration: %w", err)
	}
	return data, nil
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// commands lists the drivers the project file wrote (whole, or some of
// their keys) that name what runs. Each is compared with the driver of
// the same name under the project's file (base: the defaults and the
// user's configuration, which the user trusts), also when the project does
// not inherit them: a copy of such a driver runs nothing new.
func (m *merged) commands(project *source, base map[string]*Driver) []Command {
	var out []Command
	for _, name := range sortedKeys(m.cfg.Drivers) {
		d := m.cfg.Drivers[name]
		path := fieldPath("drivers", name)
		if !m.wrote(path, project) || (d.Type != "external" && d.Type != "lsp" && d.Type != "junit") {
			continue
		}
		c := Command{Driver: name, Line: project.idx.find(path).line, Runs: runs(d)}
		if def, ok := base[name]; ok {
			c.Keys = execDiff(def, d)
			if len(c.Keys) == 0 {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// execDiff lists the ExecKeys that b sets to other values than a. A key b
// leaves unset (no smoke test, no settings) runs less, never something
// new, and does not count.
func execDiff(a, b *Driver) []string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var out []string
	for _, key := range ExecKeys {
		f, _ := fieldByKey(va.Type(), key)
		x, y := va.FieldByIndex(f.Index).Interface(), vb.FieldByIndex(f.Index).Interface()
		if !empty(y) && !reflect.DeepEqual(x, y) {
			out = append(out, key)
		}
	}
	sort.Strings(out)
	return out
}

// empty reports whether v is a zero value or an empty slice or map.
func empty(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.IsZero() {
		return true
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Map:
		return rv.Len() == 0
	}
	return false
}

func runs(d *Driver) []Run {
	var out []Run
	for _, r := range []Run{{"command", d.Command}, {"fix_command", d.FixCommand}, {"version_command", d.VersionCommand}} {
		if len(r.Argv) > 0 {
			out = append(out, r)
		}
	}
	return out
}
