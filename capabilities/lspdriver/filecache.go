package lspdriver

// This file defines [fileCache]: the disk's files that navigation answers
// named (definition, references, hover, symbols), kept with their mappers
// from one request to the next. A workspace symbol search names up to
// 100 symbols in tens of files, most of them the same from one search to
// the next; each file's position conversion (convert.go) needs its whole
// text, which is otherwise opened, read and scanned for its lines again
// on every answer.
//
// Freshness: a kept file is used only when a stat of it, taken for this
// answer through the same directory the read goes through, gives the
// stamp it was read under (lsp.FileStamp: size, times, inode and device,
// the stamps the check of the server's inputs compares). It was read
// after that stat, so a write after the stat changes the stamp the next
// answer sees; a file is kept only when its stamp is settled (its last
// change older than a timestamp tick can hide, and a change time the
// platform gives): a write in the same tick as an unsettled stamp could
// leave it equal.

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// maxKeptBytes bounds what the cache keeps: the files' text and their
// mappers' line starts (a word per line). Past it, it starts over; a
// file larger than a quarter of it is not kept.
const maxKeptBytes = 32 << 20

// fileCache keeps files read from the disk, by absolute path. The zero
// value is ready.
type fileCache struct {
	mu    sync.Mutex
	files map[string]keptFile
	bytes int
	// settled decides whether a stamp may be kept; nil is
	// [lsp.FileStamp.Settled] now (tests keep every stamp).
	settled func(lsp.FileStamp) bool
}

// keptFile is a file's text (BOM removed) and its mapper, read after a
// stat that gave st.
type keptFile struct {
	st      lsp.FileStamp
	content string
	m       *text.Mapper
}

// size is what a kept file holds: its text and its mapper's line starts.
func (f keptFile) size() int { return len(f.content) + f.m.Lines()*strconv.IntSize/8 }

func (c *fileCache) get(abs string, st lsp.FileStamp) (keptFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.files[abs]
	return f, ok && f.st == st
}

func (c *fileCache) put(abs string, f keptFile) {
	if c.settled != nil && !c.settled(f.st) || c.settled == nil && !f.st.Settled(time.Now()) {
		return
	}
	n := f.size()
	if n > maxKeptBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.files[abs]; ok {
		c.bytes -= old.size()
	}
	if c.files == nil || c.bytes+n > maxKeptBytes {
		c.files, c.bytes = map[string]keptFile{}, 0
	}
	c.files[abs] = f
	c.bytes += n
}

// readKept is the text of the disk's file at workspace path p and its
// mapper, as [mappers.disk] reads it: the kept one when a stat through
// its directory gives the stamp it was read under, else read through the
// directory after that stat, and kept. A file the directory refuses is
// read as [view.read] reads it, and not kept.
func (r *dirReader) readKept(p string, c *fileCache) (string, *text.Mapper) {
	if d, name := r.dir(p); d != nil {
		if fi, err := d.Stat(name); err == nil && fi.Mode().IsRegular() {
			st, abs := lsp.StampOf(fi), r.v.abs(p)
			if f, ok := c.get(abs, st); ok {
				return f.content, f.m
			}
			if data, _, err := d.ReadFileMax(name, 0); err == nil {
				f := keptFile{st: st, content: strings.TrimPrefix(string(data), text.BOM)}
				f.m = text.NewMapper(f.content)
				c.put(abs, f)
				return f.content, f.m
			}
		}
	}
	if b := r.v.read(p); b != nil {
		content := strings.TrimPrefix(string(b), text.BOM)
		return content, text.NewMapper(content)
	}
	return "", nil
}
