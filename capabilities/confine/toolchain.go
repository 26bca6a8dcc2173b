package confine

// This file defines the real compilers behind the wrapper and the
// system's own directories they may read: asked of the go command and of
// the compilers once per specification, and kept beside it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// toolchain is the real compilers and their system directories.
type toolchain struct {
	CC  []string `json:"cc"`
	CXX []string `json:"cxx"`
	// Include are the compilers' default include directories (C's and
	// C++'s), Lib their library directories.
	Include []string `json:"include"`
	Lib     []string `json:"lib"`
}

// askTimeout bounds each question to the go command or a compiler.
const askTimeout = 2 * time.Minute

// loadToolchain returns the toolchain of the specification in dir: kept
// in toolchain.json there, or found now (and kept). env is the wrapper's
// environment.
func loadToolchain(dir string, spec *Spec, env []string) (*toolchain, error) {
	file := filepath.Join(dir, "toolchain.json")
	if data, err := os.ReadFile(file); err == nil {
		var tc toolchain
		if json.Unmarshal(data, &tc) == nil && len(tc.CC) > 0 {
			return &tc, nil
		}
	}
	tc, err := findToolchain(spec, env)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(tc)
	if err != nil {
		return nil, err
	}
	// Written whole, then renamed: concurrent wrappers each find the same.
	tmp, err := os.CreateTemp(dir, "toolchain-*.json")
	if err != nil {
		return tc, nil // the answer stands; it is found again next time
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		_ = os.Remove(tmp.Name())
	}
	return tc, nil
}

// findToolchain asks the go command which compilers it runs (those of
// the environment the specification recorded, else go env CC and CXX,
// which read the go command's env file and know its defaults) and the
// compilers where they search.
func findToolchain(spec *Spec, env []string) (*toolchain, error) {
	ctx, cancel := context.WithTimeout(context.Background(), askTimeout)
	defer cancel()
	tc := &toolchain{CC: spec.CC, CXX: spec.CXX}
	clean := without(env, EnvVar, "CC", "CXX")
	if len(tc.CC) == 0 || len(tc.CXX) == 0 {
		goCmd := "go"
		if root, ok := lookup(env, "GOROOT"); ok && root != "" {
			goCmd = filepath.Join(root, "bin", "go")
		}
		cmd := exec.CommandContext(ctx, goCmd, "env", "CC", "CXX")
		cmd.Env = clean
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go env CC CXX: %w", err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < 2 {
			return nil, fmt.Errorf("go env CC CXX: unexpected output %q", out)
		}
		if len(tc.CC) == 0 {
			if tc.CC, err = split(lines[0]); err != nil {
				return nil, fmt.Errorf("go env CC: %w", err)
			}
		}
		if len(tc.CXX) == 0 {
			if tc.CXX, err = split(lines[1]); err != nil {
				return nil, fmt.Errorf("go env CXX: %w", err)
			}
		}
	}
	if len(tc.CC) == 0 || len(tc.CXX) == 0 {
		return nil, errors.New("the go command names no C compiler (go env CC)")
	}
	for _, q := range []struct {
		argv []string
		lang string
	}{{tc.CC, "c"}, {tc.CXX, "c++"}} {
		cmd := exec.CommandContext(ctx, q.argv[0], append(slices.Clone(q.argv[1:]), "-E", "-v", "-x", q.lang, os.DevNull)...)
		cmd.Env = clean
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Stdout = nil
		if err := cmd.Run(); err != nil {
			if q.lang == "c" {
				return nil, fmt.Errorf("%s -E -v: %w", strings.Join(q.argv, " "), err)
			}
			continue // no C++ compiler: no C++ directories
		}
		tc.Include = appendNew(tc.Include, searchList(stderr.String())...)
	}
	cmd := exec.CommandContext(ctx, tc.CC[0], append(slices.Clone(tc.CC[1:]), "-print-search-dirs")...)
	cmd.Env = clean
	if out, err := cmd.Output(); err == nil {
		tc.Lib = appendNew(tc.Lib, libraryDirs(string(out))...)
	}
	return tc, nil
}

// searchList reads the include directories a compiler lists for -v:
// the lines between `#include "..." search starts here:` (or <...>) and
// "End of search list.", less a " (framework directory)" note.
func searchList(stderr string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "#include ") && strings.HasSuffix(line, "search starts here:"):
			in = true
		case strings.HasPrefix(line, "End of search list."):
			in = false
		case in && strings.HasPrefix(line, " "):
			d := strings.TrimSpace(strings.TrimSuffix(line, " (framework directory)"))
			if d != "" {
				out = append(out, filepath.Clean(d))
			}
		}
	}
	return out
}

// libraryDirs reads the "libraries: =dir:dir" line of -print-search-dirs.
func libraryDirs(out string) []string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "libraries: ="); ok {
			var dirs []string
			for _, d := range filepath.SplitList(v) {
				if d != "" {
					dirs = append(dirs, filepath.Clean(d))
				}
			}
			return dirs
		}
	}
	return nil
}

// appendNew appends each of add that list does not hold.
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}
