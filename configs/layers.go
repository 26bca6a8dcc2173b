package configs

// This file defines the layers a root's configuration is merged from: the
// embedded defaults, the user's own file, and the project's file.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"
)

// UserFile is the path of the user's configuration:
// $XDG_CONFIG_HOME/devbroker/config.toml, or
// ~/.config/devbroker/config.toml when XDG_CONFIG_HOME is unset, empty or
// relative (the XDG Base Directory specification says to ignore a
// relative path). It is "" when neither variable gives a directory.
func UserFile() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || !filepath.IsAbs(home) {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "devbroker", "config.toml")
}

// readUser reads the user's configuration file; tests replace it to
// inject a permission error, which root (CI's user) never meets.
var readUser = func(name string) ([]byte, error) { return os.ReadFile(name) }

// readUserFile reads the user's configuration: nil without one.
func readUserFile() (*source, error) {
	file := UserFile()
	if file == "" {
		return nil, nil
	}
	data, err := readUser(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if errors.Is(err, fs.ErrPermission) {
		// An unreadable home (a container's, another user's) must not
		// stop every command: the defaults serve, and the load says so.
		return nil, &unreadableUserFile{file: file, err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("reading the user configuration: %w (fix or remove the file)", err)
	}
	return &source{name: file, data: data}, nil
}

// unreadableUserFile is a user configuration that cannot be read for
// want of permission: not an error of the load, a warning of it.
type unreadableUserFile struct {
	file string
	err  error
}

func (u *unreadableUserFile) Error() string {
	return fmt.Sprintf("the user configuration %s cannot be read (%v), so it is not used: the embedded defaults serve without it; fix its permissions, or set XDG_CONFIG_HOME to another directory", u.file, u.err)
}

// inherits reports whether a file's content builds on the layers under it:
// false when it sets inherit_defaults = false.
func inherits(data []byte) bool {
	var head struct {
		InheritDefaults *bool `toml:"inherit_defaults"`
	}
	return toml.Unmarshal(data, &head) != nil || head.InheritDefaults == nil || *head.InheritDefaults
}

// layers are the files under a project's: the embedded defaults, and the
// user's file over them (or alone, when it does not inherit them).
func baseLayers(user *source) []*source {
	defaults := &source{name: DefaultsName, data: defaultsTOML}
	switch {
	case user == nil:
		return []*source{defaults}
	case !inherits(user.data):
		return []*source{user}
	}
	return []*source{defaults, user}
}

// loadLayers loads the project's file (project, nil: none) over the layers
// under it, or alone when it does not inherit them.
func loadLayers(user, project *source) (*merged, error) {
	if project != nil && !inherits(project.data) {
		return load(project)
	}
	layers := baseLayers(copySource(user))
	if project != nil {
		layers = append(layers, project)
	}
	return load(layers[0], layers[1:]...)
}

// copySource is an undecoded copy of s (nil: nil), so that each load
// decodes its own.
func copySource(s *source) *source {
	if s == nil {
		return nil
	}
	return &source{name: s.name, data: s.data}
}
