package rootfs

// This file defines the temporary file behind every atomic write: it is
// named recognisably ([TempPrefix], the writer's pid and a random part) in
// the directory of the file it replaces, and a write to a directory first
// removes the temporaries there whose writer is gone (a killed process),
// at most once a minute per directory.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TempPrefix starts the name of every temporary file a write creates:
// ".devbroker-tmp-<pid>-<random>". Such a file is never a file of the
// tree: if one remains (its writer was killed), a later write to that
// directory removes it: the next one from a process that has not swept
// the directory in the last minute (see [StaleTempAge]).
const TempPrefix = ".devbroker-tmp-"

// StaleTempAge is the age after which a temporary is removed even when a
// process with its writer's pid still runs (the pid was reused, or the
// writer is on another host or in another pid namespace). A temporary
// whose writer's pid is not running is removed at once.
const StaleTempAge = 24 * time.Hour

// pending is a temporary file that replaces name in dir when committed.
type pending struct {
	*os.File
	dir  *os.Root
	tmp  string // the temporary's name in dir
	name string // the file it replaces
	done bool
}

// newPending creates a temporary for name in dir with exactly perm (the
// umask is undone by a chmod).
func newPending(dir *os.Root, name string, perm fs.FileMode) (*pending, error) {
	for range 8 {
		var b [tempRandLen / 2]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		tmp := TempPrefix + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
		f, err := dir.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := f.Chmod(perm); err != nil {
			_ = f.Close()
			_ = dir.Remove(tmp)
			return nil, err
		}
		return &pending{File: f, dir: dir, tmp: tmp, name: name}, nil
	}
	return nil, fmt.Errorf("8 random temporary names were all taken: %w", fs.ErrExist)
}

// syncClose syncs and closes the temporary: its content is on disk
// before any rename makes it the file.
func (p *pending) syncClose() error {
	if err := p.Sync(); err != nil {
		return err
	}
	return p.Close()
}

// replace renames the temporary, synced and closed, over the file it
// replaces.
func (p *pending) replace() error {
	if err := p.dir.Rename(p.tmp, p.name); err != nil {
		return err
	}
	p.done = true
	return nil
}

// Cleanup closes (unless closed) and removes the temporary unless it
// replaced its file.
func (p *pending) Cleanup() {
	if p.done {
		return
	}
	_ = p.Close() // an error when already closed
	_ = p.dir.Remove(p.tmp)
	p.done = true
}

// sweepInterval is the least time between two sweeps of one directory by
// this process: a write sweeps its directory when none did for this long,
// so a temporary left by a writer killed while this process runs is
// removed by a write at most this long after it was left.
const sweepInterval = time.Minute

// now is the clock of the sweeps (a variable for tests).
var now = time.Now

// swept records when this process last swept each directory (absolute
// path → time.Time).
var swept sync.Map

// tempRandLen is the length of the random part of a temporary's name: 8
// random bytes in lowercase hex (see newPending).
const tempRandLen = 16

// sweepTemps removes the temporaries in dir (absolute path abs) whose
// writer is not running, or that are older than [StaleTempAge], unless
// this process swept dir less than sweepInterval ago. Only names exactly
// of the form newPending creates are considered ([isTempName]). Best
// effort: a failure leaves them.
func sweepTemps(dir *os.Root, abs string) {
	t := now()
	if last, ok := swept.Load(abs); ok && t.Sub(last.(time.Time)) < sweepInterval {
		return
	}
	swept.Store(abs, t)
	d, err := dir.Open(".")
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	for _, n := range names {
		if isTempName(n) && staleTemp(dir, n) {
			_ = dir.Remove(n)
		}
	}
}

// isTempName reports whether name is exactly a temporary's name:
// [TempPrefix], a pid (a positive int) in decimal without a leading zero, "-" and
// tempRandLen lowercase hex digits.
func isTempName(name string) bool {
	rest, ok := strings.CutPrefix(name, TempPrefix)
	if !ok {
		return false
	}
	pid, random, ok := strings.Cut(rest, "-")
	if !ok || pid == "" || pid[0] == '0' || len(random) != tempRandLen {
		return false
	}
	for _, c := range pid {
		if c < '0' || c > '9' {
			return false
		}
	}
	if _, err := strconv.Atoi(pid); err != nil { // out of range
		return false
	}
	for _, c := range random {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// staleTemp reports whether the temporary name in dir is left over.
func staleTemp(dir *os.Root, name string) bool {
	fi, err := dir.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if time.Since(fi.ModTime()) > StaleTempAge {
		return true
	}
	pidText, _, _ := strings.Cut(strings.TrimPrefix(name, TempPrefix), "-")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	return pid != os.Getpid() && !running(pid)
}
