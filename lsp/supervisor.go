package lsp

// This file defines [Supervisor]: one [Pool] of [Server] lanes per
// (command, environment, settings, root), shared by every caller, and closed when the last caller
// lets go. A supervisor belongs to its owner (a capabilities set, handed
// on to the set that replaces it), never to the package.

import (
	"errors"
	"sync"
)

// Supervisor hands out shared Servers. It is safe for concurrent use.
type Supervisor struct {
	mu      sync.Mutex
	servers map[string]*shared
	closed  bool
}

type shared struct {
	pool *Pool
	refs int
}

// NewSupervisor returns an empty Supervisor.
func NewSupervisor() *Supervisor {
	return &Supervisor{servers: map[string]*shared{}}
}

// Acquire returns the Server for cfg's command, environment, settings and
// root, creating it (not starting it) on first use; callers with the same
// ones share one Server. release lets go of it (it is
// idempotent); the Server closes when its last holder lets go.
func (s *Supervisor) Acquire(cfg Config) (srv *Server, release func(), err error) {
	p, release, err := s.AcquirePool(cfg, 1)
	if err != nil {
		return nil, nil, err
	}
	return p.Primary(), release, nil
}

// AcquirePool is [Supervisor.Acquire] for a [Pool] of up to size lanes:
// the Server Acquire returns is the pool's first lane, and the pool's
// size is the largest any holder asked for.
func (s *Supervisor) AcquirePool(cfg Config, size int) (pool *Pool, release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, ErrClosed
	}
	k := cfg.key()
	sh := s.servers[k]
	if sh == nil || sh.pool.isClosed() {
		sh = &shared{pool: NewPool(cfg, size, 0)}
		s.servers[k] = sh
	}
	sh.pool.atLeast(size)
	sh.refs++
	var once sync.Once
	return sh.pool, func() {
		once.Do(func() {
			s.mu.Lock()
			sh.refs--
			last := sh.refs == 0
			if last && s.servers[k] == sh {
				delete(s.servers, k)
			}
			s.mu.Unlock()
			if last {
				_ = sh.pool.Close()
			}
		})
	}, nil
}

// Close closes every Server, whoever holds it. It is idempotent.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	s.closed = true
	servers := s.servers
	s.servers = map[string]*shared{}
	s.mu.Unlock()
	var errs []error
	var wg sync.WaitGroup
	var emu sync.Mutex
	for _, sh := range servers {
		wg.Go(func() {
			if err := sh.pool.Close(); err != nil {
				emu.Lock()
				errs = append(errs, err)
				emu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// FilesChanged tells every Server whose root holds some of paths
// (absolute) that they changed on disk; see [Server.FilesChanged].
func (s *Supervisor) FilesChanged(paths []string) {
	s.mu.Lock()
	pools := make([]*Pool, 0, len(s.servers))
	for _, sh := range s.servers {
		pools = append(pools, sh.pool)
	}
	s.mu.Unlock()
	for _, p := range pools {
		p.FilesChanged(paths)
	}
}
