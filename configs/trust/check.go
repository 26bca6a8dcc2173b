package trust

// This file defines [Checker]: whether a root's project file may run its
// commands, and when not, why and what to do.

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Verdict is whether a root's project file may run its commands.
type Verdict struct {
	Trusted bool
	// Reason says, when not trusted, why and how to trust.
	Reason string
}

// Checker decides whether the project file with hash at dir ("" when dir
// has none) may apply, and whether the drivers that run the repository's
// code may run there.
type Checker interface {
	Check(dir, hash string) Verdict
}

// Check consults the store: trusted when the list holds dir's real path
// with this hash. A list that cannot be read, or that lies inside dir
// (where whoever edits the root could write it), trusts nothing.
func (s *Store) Check(dir, hash string) Verdict {
	real, err := RealPath(dir)
	if err != nil {
		return Verdict{Reason: err.Error()}
	}
	if inside(s.Path, real) {
		return Verdict{Reason: fmt.Sprintf("the trust list %s is inside the root, where anything that edits the root could write it, so it is not used: pass --trust, or set XDG_STATE_HOME to a directory outside the root", s.Path)}
	}
	how := howTo(real)
	l, err := s.Load()
	if err != nil {
		return Verdict{Reason: err.Error()}
	}
	e, ok := l.Roots[real]
	switch {
	case !ok:
		return Verdict{Reason: "this root is not trusted: " + how}
	case e.Hash != key(hash):
		return Verdict{Reason: fmt.Sprintf(".devbroker.toml changed since you trusted it (%s then, %s now): %s", short(e.Hash), short(key(hash)), how)}
	}
	return Verdict{Trusted: true}
}

// howTo says how to trust the root at real.
func howTo(real string) string {
	return fmt.Sprintf("review the root (its .devbroker.toml, if any), then run devbroker trust %s (or pass --trust for one run)", real)
}

func short(h string) string {
	if len(h) > len("sha256:")+12 {
		return h[:len("sha256:")+12] + "…"
	}
	return h
}

// inside reports whether path is dir or under it, by their real paths
// (the file may not exist yet: its directory is resolved as far as it
// exists).
func inside(path, dir string) bool {
	p := resolveExisting(path)
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func resolveExisting(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// Pinned is the --trust of the command line: it trusts the project file
// of each root of pins with the hash given there (the file as it was when
// the command started; "" when there was none), and nothing else; a file
// edited later (by a session, say) and any other root are judged by
// fallback (nil: untrusted).
func Pinned(pins map[string]string, fallback Checker) Checker {
	p := &pinned{fallback: fallback, pins: map[string]string{}}
	for dir, hash := range pins {
		if real, err := RealPath(dir); err == nil {
			p.pins[real] = hash
		}
	}
	return p
}

type pinned struct {
	fallback Checker
	pins     map[string]string // real path → hash
}

func (p *pinned) Check(dir, hash string) Verdict {
	real, err := RealPath(dir)
	if err != nil {
		return Verdict{Reason: err.Error()}
	}
	pin, ok := p.pins[real]
	switch {
	case !ok:
		return p.fall(dir, hash, Verdict{Reason: "this root is not trusted (--trust trusts only the root given on the command line): " + howTo(real)})
	case pin == hash:
		return Verdict{Trusted: true}
	case pin == "":
		return p.fall(dir, hash, Verdict{Reason: ".devbroker.toml was written after this devbroker started with --trust: " + howTo(real)})
	}
	return p.fall(dir, hash, Verdict{Reason: fmt.Sprintf(".devbroker.toml changed since this devbroker started with --trust (%s then, %s now): %s", short(pin), short(key(hash)), howTo(real))})
}

// fall asks the fallback, and returns its trust or else v.
func (p *pinned) fall(dir, hash string, v Verdict) Verdict {
	if p.fallback != nil {
		if f := p.fallback.Check(dir, hash); f.Trusted {
			return f
		}
	}
	return v
}
