// Package rootfs is the one door between devbroker and the disk: a directory
// tree confined to a root, through which every read, stat, glob, atomic write,
// rename and removal goes.
//
// The principal types are [FS] (the confined tree, built by [New]), [PathError]
// (every refusal and failure, naming the workspace path, why, and what to do
// instead) and [Hooks] (a test seam for fault injection and deterministic
// temporary names). [Clean] validates a workspace path on its own; [FS.Abs]
// adds confinement.
//
// # Paths
//
// A workspace path is slash-separated and relative to the root ("src/a.go").
// [Clean] refuses everything else: empty paths, absolute paths, "..", "." and
// empty segments, NUL bytes, backslashes, drive letters and UNC paths.
//
// # Confinement
//
// [FS.Abs] resolves a workspace path the way the kernel would, one component
// at a time, following symlinks of every component that exists; the
// components that do not exist yet are taken literally, so a new file is
// checked through its deepest existing ancestor. Each symlink, once expanded,
// must land inside the root, and so must the final path: a symlink that points
// outside the root is never followed, not even on the way back in. Paths are
// compared by components, so "/root-evil" is not inside "/root". Every
// refusal wraps [ErrOutsideRoot].
//
// The disk operations then go through an [os.Root] opened on the root with
// the resolved, symlink-free path, so a symlink swapped in after the check
// still cannot lead outside.
package rootfs
