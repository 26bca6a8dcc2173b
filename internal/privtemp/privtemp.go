// Package privtemp makes the private temporary directories of a devbroker
// process (a language server's watch barrier, the staged trees, a
// probe's smoke root, an overlay), each named with the process's id, and
// sweeps those whose process is gone: a process that was killed
// (SIGKILL, a crash) cannot remove its own, and the next devbroker
// process does.
//
// A directory's name is "devbroker-WHAT-pPID-RANDOM" under the temporary
// directory (os.TempDir, $TMPDIR). Sweep removes one only when no process
// PID runs; a process it cannot signal (another user's) counts as
// running, and so does any process on platforms where it cannot tell.
// Directories without a process id in their name (an older devbroker's)
// are never removed. Processes in another PID namespace that share the
// temporary directory (containers that mount the same /tmp) are not
// seen: give them their own TMPDIR.
package privtemp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// name matches a directory Dir made: its first group is the process id.
var name = regexp.MustCompile(`^devbroker-[a-z][a-z0-9-]*-p([1-9][0-9]*)-[0-9]+$`)

// Dir makes a new private directory under the temporary directory, named
// for what it holds (lowercase letters, digits and dashes: "watch") and
// this process, and returns its path. The caller removes it.
func Dir(what string) (string, error) {
	return os.MkdirTemp("", fmt.Sprintf("devbroker-%s-p%d-", what, os.Getpid()))
}

// Sweep removes the directories Dir made under the temporary directory
// whose process has exited, and returns their paths. Errors (a directory
// that cannot be removed) are joined; the others are still removed.
func Sweep() ([]string, error) {
	return sweep(os.TempDir())
}

func sweep(tmp string) ([]string, error) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		m := name.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() { // IsDir: not a symbolic link
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || running(pid) {
			continue
		}
		p := filepath.Join(tmp, e.Name())
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}
