package lsp

// This file defines [Supervisor]: one [Server] per (command, environment,
// settings, root), shared by every caller, and closed when the last caller
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
	srv  *Server
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, ErrClosed
	}
	k := cfg.key()
	sh := s.servers[k]
	if sh == nil || sh.srv.isClosed() {
		sh = &shared{srv: NewServer(cfg)}
		s.servers[k] = sh
	}
	sh.refs++
	var once sync.Once
	return sh.srv, func() {
		once.Do(func() {
			s.mu.Lock()
			sh.refs--
			last := sh.refs == 0
			if last && s.servers[k] == sh {
				delete(s.servers, k)
			}
			s.mu.Unlock()
			if last {
				_ = sh.srv.Close()
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
			if err := sh.srv.Close(); err != nil {
				emu.Lock()
				errs = append(errs, err)
				emu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// FilesChanged tells every Server whose root holds some of paths
// (absolute) that they changed on disk; see [Server.FilesChanged].
func (s *Supervisor) FilesChanged(paths []string) {
	s.mu.Lock()
	servers := make([]*Server, 0, len(s.servers))
	for _, sh := range s.servers {
		servers = append(servers, sh.srv)
	}
	s.mu.Unlock()
	for _, srv := range servers {
		srv.FilesChanged(paths)
	}
}
