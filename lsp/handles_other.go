//go:build !linux

package lsp

// handle is nothing elsewhere than Linux: inputs are stat'ed by path.
type handle int

const noHandle handle = -1

const maxHandles = 0

func newHandles() *handles { return nil }

func (handle) stat() (stamp, bool, error) { panic("no handles") }

func (handle) close() {}

func openStamp(_ handle, _, p string, follow bool, _ uint64) (stamp, handle, error) {
	st, err := statStamp(p, follow)
	return st, noHandle, err
}

type mountWatch struct{}

func (*mountWatch) changed() bool { return true }
func (*mountWatch) close()        {}

func (*mountWatch) under(string) (map[string]bool, error) { return nil, nil }
