package trust

// This file defines [Store]: the trust list on disk, read strictly and
// written atomically with mode 0600.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// FileName is the trust list's name in the state directory.
const FileName = "trust.json"

// Store is the trust list at Path.
type Store struct {
	Path string
}

// DefaultPath is the user's trust list: $XDG_STATE_HOME/devbroker/trust.json,
// or ~/.local/state/devbroker/trust.json when XDG_STATE_HOME is unset (or
// not absolute, as the XDG specification says to ignore it).
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the trust list: set XDG_STATE_HOME or HOME: %w", err)
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "devbroker", FileName), nil
}

// Default returns the user's store.
func Default() (*Store, error) {
	p, err := DefaultPath()
	if err != nil {
		return nil, err
	}
	return &Store{Path: p}, nil
}

// CorruptError is a trust list that cannot be read as one.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the trust list %s is not valid (%v): remove it (rm %s) and trust your roots again with devbroker trust DIR", e.Path, e.Err, e.Path)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Load reads the list; a missing file is an empty list.
func (s *Store) Load() (*List, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Parse(nil)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the trust list: %w", err)
	}
	l, err := Parse(data)
	if err != nil {
		return nil, &CorruptError{Path: s.Path, Err: err}
	}
	return l, nil
}

// Trust records that the user trusts the project file with hash at dir
// ("" when dir has none), replacing what was trusted there. It returns
// dir's real path.
func (s *Store) Trust(dir, hash string) (string, error) {
	hash = key(hash)
	if !ValidHash(hash) {
		return "", fmt.Errorf("hash %q is not like \"sha256:<64 hex digits>\"", hash)
	}
	real, err := RealPath(dir)
	if err != nil {
		return "", err
	}
	return real, s.update(func(l *List) {
		l.Roots[real] = Entry{Hash: hash, TrustedAt: time.Now().UTC().Truncate(time.Second)}
	})
}

// Untrust forgets dir. It returns dir's real path and whether it was
// trusted.
func (s *Store) Untrust(dir string) (real string, was bool, err error) {
	real, err = RealPath(dir)
	if err != nil {
		return "", false, err
	}
	err = s.update(func(l *List) {
		_, was = l.Roots[real]
		delete(l.Roots, real)
	})
	return real, was, err
}

// update reads the list, changes it and writes it back atomically: the
// file is whole before or after, never half written. A corrupt list is
// left as it is.
func (s *Store) update(change func(*List)) error {
	l, err := s.Load()
	if err != nil {
		return err
	}
	change(l)
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return fmt.Errorf("creating the trust list's directory: %w", err)
	}
	if err := writeAtomic(s.Path, l.Marshal()); err != nil {
		return fmt.Errorf("writing the trust list: %w", err)
	}
	return nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, with mode 0600: a reader sees
// the old list or the new one, never part of one.
func writeAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o600); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// RealPath is dir made absolute with its symbolic links resolved: the key
// of the list.
func RealPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolving the root: %w", err)
	}
	return real, nil
}
