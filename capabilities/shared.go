package capabilities

// This file defines [Shared]: the long-lived resources that a set's
// drivers share and that a re-probe hands from a set to the set replacing
// it (the lsp type's supervisor of language servers).

import (
	"errors"
	"io"
	"sort"
	"sync"
)

// Shared holds resources by key, each made on first use. Every set built
// over it holds it (see [NewSetAfter]); when the last holder lets go, it
// closes every resource. It is safe for concurrent use.
type Shared struct {
	mu     sync.Mutex
	refs   int
	items  map[string]io.Closer
	closed bool
}

// errSharedClosed is Get's error after the last holder let go.
var errSharedClosed = errors.New("the drivers' shared resources were closed (the drivers are shutting down); run the request again")

// newShared returns a Shared held once.
func newShared() *Shared { return &Shared{refs: 1, items: map[string]io.Closer{}} }

// hold adds a holder.
func (s *Shared) hold() *Shared {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refs++
	return s
}

// release lets go of one hold; the last closes every resource, in key
// order.
func (s *Shared) release() error {
	s.mu.Lock()
	s.refs--
	if s.refs > 0 || s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	items := s.items
	s.items = nil
	s.mu.Unlock()
	keys := make([]string, 0, len(items))
	for k := range items {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, k := range keys {
		errs = append(errs, items[k].Close())
	}
	return errors.Join(errs...)
}

// Get returns the resource under key, made by build on first use (build
// must start nothing: a resource starts its processes when used). After
// the last holder let go it returns an error.
func (s *Shared) Get(key string, build func() io.Closer) (io.Closer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errSharedClosed
	}
	if c, ok := s.items[key]; ok {
		return c, nil
	}
	c := build()
	s.items[key] = c
	return c, nil
}
