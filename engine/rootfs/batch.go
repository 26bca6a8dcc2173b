package rootfs

// This file defines [FS.WriteFiles], the atomic write of several files at
// once: first every file's temporary is written and synced, several at a
// time; then, in order, each file gets its last check and is replaced by a
// rename; and each directory that received a replacement is synced once,
// at the end, not once per file.

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// FileWrite is one file of [FS.WriteFiles]: the workspace path, its new
// content and, when not nil, its last check (see [FS.WriteFileIf]).
type FileWrite struct {
	Path    string
	Content string
	Check   func(current []byte, exists bool) error
}

// writeRound is the most files [FS.WriteFiles] stages before replacing
// them: it bounds the directories held open and the temporaries that a
// crash can leave.
const writeRound = 256

// stageWorkers is how many temporaries are written and synced at once: a
// sync waits for the disk, and syncs in flight together share its flushes.
const stageWorkers = 16

// WriteFiles writes each of files as [FS.WriteFileIf] does, in order, and
// returns how many of them, from the first, replaced their file. Each file
// is atomic on its own: its temporary is written and synced before the
// rename that replaces it, and a crash leaves it wholly old or wholly new.
// The files are staged in rounds of up to 256: every temporary of a round
// is written and synced first (several at once), then each file, in order,
// runs the [Hooks.BeforeOp] hook (op "write"), its check against what the
// disk holds immediately before its rename, and the rename; at the end of
// the round each directory that received a file is synced once.
//
// On failure, the files before index failed have replaced theirs (done of
// them), no other file was touched, and err, about files[failed], is a
// check's error as it is, ctx's error, or an I/O error naming the file. The
// temporaries of the files not written are removed, and so are the
// directories the round created for them. A failure while staging
// replaces nothing in its round.
func (f *FS) WriteFiles(ctx context.Context, files []FileWrite) (done, failed int, err error) {
	if len(files) == 0 {
		return 0, 0, nil
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		return 0, 0, ioError(OpWrite, files[0].Path, err)
	}
	defer root.Close()
	for start := 0; start < len(files); start += writeRound {
		r := &round{f: f, root: root, dirs: map[string]*batchDir{}}
		n, at, err := r.write(ctx, files[start:min(start+writeRound, len(files))])
		if err != nil {
			return start + n, start + at, err
		}
	}
	return len(files), 0, nil
}

// round is one round of [FS.WriteFiles].
type round struct {
	f     *FS
	root  *os.Root
	dirs  map[string]*batchDir // by directory, relative to the root
	files []*staged
	made  []string // directories created, parents first
}

// batchDir is a directory that files of a round go into.
type batchDir struct {
	root     *os.Root
	received bool // a file was renamed into it: it needs a sync
}

// staged is a file of a round, and its temporary once written.
type staged struct {
	FileWrite
	name     string // the resolved path, relative to the root
	base     string
	dir      *batchDir
	existing fs.FileInfo // nil for a new file
	mode     fs.FileMode
	tmp      *pending
}

// write stages files, then replaces them in order.
func (r *round) write(ctx context.Context, files []FileWrite) (done, failed int, err error) {
	defer r.close()
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	for i, fw := range files {
		if err := r.prepare(fw); err != nil {
			r.abort()
			return 0, i, err
		}
	}
	if i, err := r.stage(); err != nil {
		r.abort()
		return 0, i, err
	}
	defer r.syncDirs()
	for i, s := range r.files {
		if err := r.commit(ctx, s); err != nil {
			r.abort()
			return i, i, err
		}
	}
	return len(files), 0, nil
}

// prepare resolves a file, checks what it replaces, and creates and opens
// its directory.
func (r *round) prepare(fw FileWrite) error {
	abs, err := r.f.Abs(fw.Path)
	if err != nil {
		return withOp(err, OpWrite)
	}
	s := &staged{FileWrite: fw, name: r.f.rootRel(abs), mode: NewFileMode}
	switch fi, err := r.root.Stat(s.name); {
	case err == nil:
		if err := regular(OpWrite, fw.Path, fi); err != nil {
			return err
		}
		s.existing, s.mode = fi, fi.Mode()&keptBits
	case !errors.Is(err, fs.ErrNotExist):
		return ioError(OpWrite, fw.Path, err)
	}
	dir, base := filepath.Split(s.name)
	s.base = base
	if s.dir = r.dirs[dir]; s.dir == nil {
		if err := mkdirs(r.root, OpWrite, dir, fw.Path, &r.made); err != nil {
			return err
		}
		d, err := r.root.OpenRoot(dirOrDot(dir))
		if err != nil {
			return ioError(OpWrite, fw.Path, err)
		}
		s.dir = &batchDir{root: d}
		r.dirs[dir] = s.dir
		sweepTemps(d, filepath.Join(r.f.root, dir)) // temporaries of killed writers
	}
	r.files = append(r.files, s)
	return nil
}

// stage writes and syncs every temporary, stageWorkers at a time. It
// returns the first file (by index) that failed.
func (r *round) stage() (int, error) {
	errs := make([]error, len(r.files))
	parallel(len(r.files), func(i int) { errs[i] = r.files[i].stage() })
	for i, err := range errs {
		if err != nil {
			return i, err
		}
	}
	return 0, nil
}

// stage writes s's temporary with its mode (and, where allowed, the
// owner of the file it replaces), syncs and closes it.
func (s *staged) stage() error {
	pf, err := newPending(s.dir.root, s.base, s.mode&fs.ModePerm)
	if err != nil {
		return ioError(OpWrite, s.Path, err)
	}
	s.tmp = pf
	if s.existing != nil {
		keepOwner(pf.File, s.existing) // before the chmod: chown clears setuid
	}
	if s.mode&^fs.ModePerm != 0 {
		if err := pf.Chmod(s.mode); err != nil {
			return ioError(OpWrite, s.Path, err)
		}
	}
	if _, err := io.WriteString(pf, s.Content); err != nil {
		return ioError(OpWrite, s.Path, err)
	}
	if err := pf.syncClose(); err != nil {
		return ioError(OpWrite, s.Path, err)
	}
	return nil
}

// commit runs the hook and the check of s, then renames its temporary
// over the file.
func (r *round) commit(ctx context.Context, s *staged) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := r.f.before(OpWrite, s.Path, ""); err != nil {
		return err
	}
	if s.Check != nil {
		cur, err := s.dir.root.ReadFile(s.base)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ioError(OpWrite, s.Path, err)
		}
		if err := s.Check(cur, exists); err != nil {
			return err
		}
	}
	if err := s.tmp.replace(); err != nil {
		return ioError(OpWrite, s.Path, err)
	}
	s.dir.received = true
	if r.f.observe != nil {
		link, _ := r.f.entry(OpWrite, s.Path)
		r.f.changed(s.name, link)
	}
	return nil
}

// abort removes the temporaries not renamed, then the directories the
// round created that are still empty (best effort).
func (r *round) abort() {
	for _, s := range r.files {
		if s.tmp != nil {
			s.tmp.Cleanup()
		}
	}
	for _, d := range slices.Backward(r.made) {
		_ = r.root.Remove(d) // refused unless empty
	}
}

// syncDirs syncs each directory a file was renamed into, several at
// once, so that the renames are durable (see [syncDir]).
func (r *round) syncDirs() {
	var dirs []*os.Root
	for _, d := range r.dirs {
		if d.received {
			dirs = append(dirs, d.root)
		}
	}
	parallel(len(dirs), func(i int) { syncDir(dirs[i]) })
}

// parallel calls fn(0) … fn(n-1), stageWorkers at a time.
func parallel(n int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(stageWorkers, n) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// close removes what is left of the temporaries and closes the
// directories.
func (r *round) close() {
	for _, s := range r.files {
		if s.tmp != nil {
			s.tmp.Cleanup()
		}
	}
	for _, d := range r.dirs {
		_ = d.root.Close()
	}
}
