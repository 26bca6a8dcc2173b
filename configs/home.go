package configs

// This file defines the configuration files of the user's own tools that
// lie inside a root: a root that is the home directory (--root ~), or a
// dev container whose home is the workspace. Whoever edits the root can
// write them, and each can make a tool run a program (a devbroker driver,
// GOFLAGS=-toolexec in the go command's env file, npm and pip settings),
// so they get the project file's rules: inert until the user trusts the
// root, and part of the content trust is given to, so that an edit
// untrusts the root.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// HomeFile is a configuration file of the user's tools found inside a
// root.
type HomeFile struct {
	// What names the file for people: "the go command's env file".
	What string
	// Path is where it is.
	Path string
	// Inert is the environment variable (NAME=VALUE) that makes the
	// tools ignore it; "" for devbroker's own file, which is left out of
	// the configuration instead.
	Inert string
}

// homeCandidates lists where the user's tools read their configuration,
// whether or not the files exist.
func homeCandidates() []HomeFile {
	var out []HomeFile
	if f := UserFile(); f != "" {
		out = append(out, HomeFile{What: "the devbroker user configuration", Path: f})
	}
	goenv := os.Getenv("GOENV")
	if goenv == "" {
		if dir, err := os.UserConfigDir(); err == nil {
			goenv = filepath.Join(dir, "go", "env")
		}
	}
	if goenv != "" && goenv != "off" {
		out = append(out, HomeFile{What: "the go command's env file", Path: goenv, Inert: "GOENV=off"})
	}
	home, _ := os.UserHomeDir()
	npmrc := os.Getenv("NPM_CONFIG_USERCONFIG")
	if npmrc == "" && home != "" {
		npmrc = filepath.Join(home, ".npmrc")
	}
	if npmrc != "" {
		out = append(out, HomeFile{What: "npm's user configuration", Path: npmrc, Inert: "NPM_CONFIG_USERCONFIG=" + os.DevNull})
	}
	if pip := os.Getenv("PIP_CONFIG_FILE"); pip != "" {
		out = append(out, HomeFile{What: "pip's configuration", Path: pip, Inert: "PIP_CONFIG_FILE=" + os.DevNull})
	} else if home != "" {
		for _, p := range []string{filepath.Join(home, ".config", "pip", "pip.conf"), filepath.Join(home, ".pip", "pip.conf")} {
			out = append(out, HomeFile{What: "pip's configuration", Path: p, Inert: "PIP_CONFIG_FILE=" + os.DevNull})
		}
	}
	return out
}

// HomeFilesIn returns the configuration files of the user's tools that
// exist and lie inside root (compared with every symbolic link of the
// root and of the files' directories resolved).
func HomeFilesIn(root string) []HomeFile {
	var out []HomeFile
	for _, h := range homePathsIn(root) {
		if _, err := os.Lstat(h.Path); err == nil {
			out = append(out, h)
		}
	}
	return out
}

// homePathsIn returns where the user's tools would read a configuration
// file inside root, whether or not it exists: one that appears while a
// server runs (written by an agent) is read by the next tool the server
// starts, so the tools are told to ignore it from the start.
func homePathsIn(root string) []HomeFile {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil
	}
	var out []HomeFile
	for _, h := range homeCandidates() {
		if p, ok := resolved(h.Path); ok && within(real, p) {
			out = append(out, h)
		}
	}
	return out
}

// resolved is p with the symbolic links of its nearest existing ancestor
// directory resolved (p itself, which may be a link, is not followed).
func resolved(p string) (string, bool) {
	rest := filepath.Base(p)
	for dir := filepath.Dir(p); ; dir = filepath.Dir(dir) {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), true
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether p lies under dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
