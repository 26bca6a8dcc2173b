package lsp

// This file exports the stamps of verify.go for a cache of file content
// outside this package (the driver's mappers, capabilities/lspdriver):
// the same comparison that decides whether the server must be told of a
// change decides whether content read earlier still stands.

import (
	"io/fs"
	"time"
)

// FileStamp is what says whether a file changed: its mode, size,
// modification and change times, inode and device, as one stat gives
// them. Two equal stamps of a settled file (see [FileStamp.Settled]) are
// the same content.
type FileStamp struct{ st stamp }

// StampOf is fi's stamp.
func StampOf(fi fs.FileInfo) FileStamp { return FileStamp{stampOf(fi)} }

// Settled reports whether a write after the stamp was taken at now is
// bound to change it: the file's last change is older than racyWindow
// (a write in the same timestamp tick could leave a racy stamp equal),
// and the platform gives a change time, which no tool sets back.
func (s FileStamp) Settled(now time.Time) bool {
	return s.st.ctime != 0 && !s.st.racy(now.Add(-racyWindow).UnixNano())
}
