//go:build darwin || (linux && !amd64 && !arm64)

package lsp

import "syscall"

// statStampZ is the stamp of the file at pz, a path and a NUL byte
// (followed if a symlink when follow is set): stat(2) into a stack
// buffer, as os.Lstat would but without its FileInfo.
func statStampZ(pz string, follow bool) (stamp, error) {
	p := pz[:len(pz)-1]
	var s syscall.Stat_t
	for {
		var err error
		if follow {
			err = syscall.Stat(p, &s)
		} else {
			err = syscall.Lstat(p, &s)
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return stamp{}, statError(p, follow, err)
		}
		return stampOfSys(&s), nil
	}
}
