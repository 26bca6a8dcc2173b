//go:build !unix

package rootfs

import "errors"

// umask does nothing where there is no umask.
func umask(int) int { return 0 }

// mkfifo is unsupported where there are no named pipes in the tree.
func mkfifo(string) error { return errors.ErrUnsupported }
