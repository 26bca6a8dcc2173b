//go:build !unix

package workspace

// syscallUmask does nothing where there is no umask.
func syscallUmask(int) int { return 0 }
