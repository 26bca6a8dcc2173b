//go:build linux && (amd64 || arm64)

package procmem

import (
	"fmt"
	"syscall"
)

// kcmpVM is kcmp(2)'s KCMP_VM: do two processes share their memory.
const kcmpVM = 1

// sameVM reports whether processes a and b share one address space (a
// vfork child before its exec shares its parent's), by kcmp(2).
func sameVM(a, b int) (bool, error) {
	r, _, errno := syscall.Syscall6(sysKcmp, uintptr(a), uintptr(b), kcmpVM, 0, 0, 0)
	if errno != 0 {
		return false, fmt.Errorf("kcmp: %w", errno)
	}
	return r == 0, nil
}
