//go:build !unix

package rootfs

import (
	"io/fs"
	"os"
)

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}

// openNonblock is not needed where opens of special files do not block.
const openNonblock = 0

// running cannot tell here: every writer counts as running, so only age
// makes a temporary stale.
func running(int) bool { return true }
