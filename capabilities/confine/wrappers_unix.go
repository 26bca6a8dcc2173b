//go:build !windows

package confine

import (
	"errors"
	"os"
	"path/filepath"
)

// Coverage is what the confinement leaves unchecked in a root the user
// has not trusted: nothing on Unix, where cgo runs confined.
const Coverage = ""

// writeWrappers links cc and c++ in dir to exe, the wrapper.
func writeWrappers(dir, exe string) error {
	for _, name := range []string{"cc", "c++"} {
		if err := os.Symlink(exe, filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
	}
	return nil
}

// compilerEnv points the go command's C and C++ compilers at the
// wrappers in dir.
func compilerEnv(dir, _ string) ([]string, error) {
	cc, err := joinQuoted([]string{filepath.Join(dir, "cc")})
	if err != nil {
		return nil, err
	}
	cxx, err := joinQuoted([]string{filepath.Join(dir, "c++")})
	if err != nil {
		return nil, err
	}
	return []string{"CC=" + cc, "CXX=" + cxx}, nil
}
