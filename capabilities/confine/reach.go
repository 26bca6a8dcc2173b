package confine

// This file defines [Scan]: whether a C language server, opening some
// files of a root the user has not trusted, would read a file outside it.
//
// clangd (its background index and its .clangd files off, as the lsp
// driver starts it in such a root) reads the files it is asked about,
// what they include, transitively, and the compile commands that apply
// to them (clangd's rule: the nearest compile_commands.json,
// build/compile_commands.json or compile_flags.txt from the file's
// directory up, through the root and above it). Reach follows the same
// way, statically: the compile commands' flags (cdb.go) must name nothing
// outside the root but the system's; each directive that reads a file
// (cinclude.go) must name it literally (a macro could name anything); and
// each file an include could resolve to (the includer's directory, the
// -iquote, -I, -isystem, -idirafter and framework directories of the
// commands, the system's directories, in the union of every command's
// flags) that exists must be under the root, where it is followed in
// turn, or the system's. A file is judged by where it really is: a
// symlink that leaves the root leaves it.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/engine/lex"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// Server is the C language server a scan is for.
type Server struct {
	// Bin is its binary (resolved), Args its arguments, Env what its
	// environment adds to the process's.
	Bin  string
	Args []string
	Env  []string
}

// Doc is a file a request makes the server open: its workspace path and
// the content it is sent with.
type Doc struct {
	Path    string
	Content string
}

// reachScan is one scan's state.
type reachScan struct {
	ctx   context.Context
	fsys  *rootfs.FS
	root  string
	ok    *allowed // the root and the system's directories
	sys   []string // the system's include directories, in search order
	dbDir string   // the server's --compile-commands-dir, absolute; "" when unset
	flags map[string]*compileFlags
	// docs are the contents the server is sent, by real path: it reads
	// those, not the disk's.
	docs map[string]string
	// memo holds, per compile flags, each file's verdict by real path
	// ("" while it is being scanned: an include cycle adds nothing).
	memo map[*compileFlags]map[string]string
}

// Scan is what the server would read opening docs, asked file by file
// ([Scan.File]): whether it reads a file outside the root but the
// system's, and why.
type Scan struct {
	r    *reachScan
	why  string
	docs map[string]Doc
}

// NewScan starts a scan of what srv reads opening docs.
func NewScan(ctx context.Context, fsys *rootfs.FS, srv Server, docs []Doc) *Scan {
	r, why := newScan(ctx, fsys, srv)
	s := &Scan{r: r, why: why, docs: map[string]Doc{}}
	if why != "" {
		return s
	}
	for _, d := range docs {
		s.docs[d.Path] = d
		if real, found := resolveRead(r.root, filepath.Join(r.root, filepath.FromSlash(d.Path))); found {
			r.docs[real] = d.Content
		}
	}
	return s
}

// File reports why opening the document at workspace path p (one of the
// scan's docs) would make the server read a file outside the root, or
// "" when it would not. A reason of the server itself (its arguments)
// is every file's.
func (s *Scan) File(p string) string {
	if s.why != "" {
		return s.why
	}
	d, ok := s.docs[p]
	if !ok {
		return ""
	}
	return s.r.doc(d)
}

// surveyLimit bounds the entries a survey walks (as the probe's walk of
// the root).
const surveyLimit = 20000

// Survey is Reach for every C, C++ and Objective-C source and header
// under the root (up to surveyLimit entries walked): "" when none reaches
// outside, else the first one's reason and how many do.
func Survey(ctx context.Context, fsys *rootfs.FS, srv Server) string {
	r, why := newScan(ctx, fsys, srv)
	if why != "" {
		return why
	}
	var first string
	n, walked := 0, 0
	_ = fsys.Walk(func(rel string, d fs.DirEntry) error {
		walked++
		if walked > surveyLimit || ctx.Err() != nil {
			return fs.SkipAll
		}
		if d.IsDir() {
			if rootfs.SkipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !IsCSource(rel) {
			return nil
		}
		data, _, err := fsys.ReadFile(rel)
		if err != nil {
			return nil
		}
		if why := r.doc(Doc{Path: rel, Content: string(data)}); why != "" {
			n++
			if first == "" {
				first = why
			}
		}
		return nil
	})
	switch n {
	case 0:
		return ""
	case 1:
		return first
	}
	return fmt.Sprintf("%s (and %d more files)", first, n-1)
}

// IsCSource reports whether a workspace path is a C, C++ or
// Objective-C source or header (by engine/lex's table, and .m, .mm).
func IsCSource(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	if ext == ".m" || ext == ".mm" {
		return true
	}
	l := lex.ForFile(p)
	return l != nil && (l.Name == "c" || l.Name == "c++")
}

// newScan sets up a scan of srv over fsys's root; why is set when the
// server's own arguments make it read what the scan cannot follow.
func newScan(ctx context.Context, fsys *rootfs.FS, srv Server) (*reachScan, string) {
	r := &reachScan{ctx: ctx, fsys: fsys, root: fsys.Root(), flags: map[string]*compileFlags{}, docs: map[string]string{}, memo: map[*compileFlags]map[string]string{}}
	for i := 0; i < len(srv.Args); i++ {
		a := srv.Args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "query-driver":
			return nil, "clangd runs with --query-driver, which asks the compilers the compile commands name for their include directories"
		case "compile-commands-dir":
			if !hasVal && i+1 < len(srv.Args) {
				i++
				val = srv.Args[i]
			}
			if !filepath.IsAbs(val) {
				val = filepath.Join(r.root, val)
			}
			real, _ := resolveRead(r.root, val)
			r.dbDir = real
		}
	}
	r.sys = systemDirs(srv)
	r.ok = &allowed{}
	r.ok.addDir(r.root)
	for _, d := range r.sys {
		r.ok.addDir(d)
	}
	return r, ""
}

// doc scans one file the server would open.
func (r *reachScan) doc(d Doc) string {
	abs := filepath.Join(r.root, filepath.FromSlash(d.Path))
	flags := r.flagsFor(filepath.Dir(abs))
	if flags.reason != "" {
		return flags.reason
	}
	for _, inc := range flags.includes {
		if why := r.file(inc, flags); why != "" {
			return why
		}
	}
	real, found := resolveRead(r.root, abs)
	if !found {
		real = abs // a file only in the workspace
	}
	return r.verdict(d.Path, abs, real, d.Content, flags)
}

// file scans the file at p (as a command or an include named it, not
// cleaned) when it is under the root.
func (r *reachScan) file(p string, flags *compileFlags) string {
	real, found := resolveRead(r.root, p)
	if !found || !under(real, r.root) {
		return ""
	}
	rel, ok := r.fsys.Inside(real)
	if !ok {
		return ""
	}
	if v, done := r.memo[flags][real]; done {
		return v
	}
	content, held := r.docs[real]
	if !held {
		fi, err := os.Stat(real)
		if err != nil || !fi.Mode().IsRegular() {
			return ""
		}
		data, _, err := r.fsys.ReadFile(rel)
		if err != nil {
			return ""
		}
		content = string(data)
	}
	return r.verdict(rel, real, real, content, flags)
}

// verdict is whether the file at workspace path rel (abs: its path as
// the server names it; real: where it is) reaches outside, through its
// includes, with flags: scanned once per flags.
func (r *reachScan) verdict(rel, abs, real, content string, flags *compileFlags) string {
	m := r.memo[flags]
	if m == nil {
		m = map[string]string{}
		r.memo[flags] = m
	}
	if v, done := m[real]; done {
		return v
	}
	m[real] = ""
	v := r.scan(rel, abs, content, flags)
	m[real] = v
	return v
}

// scan checks the includes of the file at workspace path rel (abs: its
// absolute path, as the server names it), whose text is content.
func (r *reachScan) scan(rel, abs, content string, flags *compileFlags) string {
	if r.ctx.Err() != nil {
		return "the scan of what clangd would read did not finish: " + r.ctx.Err().Error()
	}
	lang := lex.ForFile(rel)
	if lang == nil || lang.Name != "c" {
		lang = lex.ForFile("x.h")
	}
	dir := abs[:max(strings.LastIndexByte(abs, filepath.Separator), 0)]
	for _, inc := range includesOf(abs, content, lang) {
		if inc.computed {
			return fmt.Sprintf("%s:%d: an #include names its file with a macro, so what clangd would read cannot be told before it preprocesses", rel, inc.line)
		}
		for _, c := range r.candidates(dir, inc, flags) {
			if _, err := os.Stat(c); err != nil {
				continue
			}
			real, _ := resolveRead(dir, c)
			switch {
			case under(real, r.root):
				if why := r.file(real, flags); why != "" {
					return why
				}
			case r.ok.has(real):
			default:
				return fmt.Sprintf("%s:%d: #include %s may read %s, outside the root", rel, inc.line, quoteName(inc), shownPath(dir, c, real))
			}
		}
	}
	return ""
}

// candidates are the paths an include could open: the name itself when
// absolute; else in the includer's directory (a quoted name), the
// -iquote directories (quoted), the -I, -isystem and -idirafter ones,
// the frameworks', the system's.
func (r *reachScan) candidates(dir string, inc cInclude, flags *compileFlags) []string {
	if filepath.IsAbs(inc.name) {
		return []string{inc.name}
	}
	var dirs []string
	if !inc.angle || inc.next {
		dirs = append(dirs, dir)
		dirs = append(dirs, flags.quoteDirs...)
	}
	dirs = append(append(dirs, flags.searchDirs...), r.sys...)
	out := make([]string, 0, len(dirs)+len(flags.frameworkDirs))
	for _, d := range dirs {
		out = append(out, pathIn(d, inc.name))
	}
	if fw, header, ok := strings.Cut(inc.name, "/"); ok {
		for _, d := range flags.frameworkDirs {
			out = append(out, pathIn(d, fw+".framework/Headers/"+header), pathIn(d, fw+".framework/PrivateHeaders/"+header))
		}
	}
	return out
}

// quoteName is an include's name as written.
func quoteName(inc cInclude) string {
	if inc.angle {
		return "<" + inc.name + ">"
	}
	return `"` + inc.name + `"`
}

// includeCache keeps the includes of files on disk by path, size and
// modification time, so a scan reads again only what changed.
var includeCache struct {
	sync.Mutex
	m map[string]cachedIncludes
}

type cachedIncludes struct {
	size, mtime int64
	content     string
	incs        []cInclude
}

// cacheMax bounds includeCache's entries; past it, it starts over.
const cacheMax = 50000

// includesOf is cIncludes of content, the file at abs, kept for a file
// whose content is its disk content.
func includesOf(abs, content string, lang *lex.Language) []cInclude {
	fi, err := os.Stat(abs)
	if err != nil || fi.Size() != int64(len(content)) {
		return cIncludes(content, lang)
	}
	key := fi.ModTime().UnixNano()
	includeCache.Lock()
	c, ok := includeCache.m[abs]
	includeCache.Unlock()
	if ok && c.size == fi.Size() && c.mtime == key && c.content == content {
		return c.incs
	}
	incs := cIncludes(content, lang)
	includeCache.Lock()
	if includeCache.m == nil || len(includeCache.m) >= cacheMax {
		includeCache.m = map[string]cachedIncludes{}
	}
	includeCache.m[abs] = cachedIncludes{size: fi.Size(), mtime: key, content: content, incs: incs}
	includeCache.Unlock()
	return incs
}

// systemDirs are the system's include directories for srv: those its
// environment names (CPATH, C_INCLUDE_PATH, CPLUS_INCLUDE_PATH,
// OBJC_INCLUDE_PATH: the user's), the C and C++ compilers' default ones,
// and the server's own built-in headers (clang's resource directory, beside
// its binary: BIN/../lib/clang).
func systemDirs(srv Server) []string {
	env := append(os.Environ(), srv.Env...)
	var out []string
	for _, k := range []string{"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH"} {
		if v, ok := lookup(env, k); ok {
			for _, d := range filepath.SplitList(v) {
				if d != "" && filepath.IsAbs(d) {
					out = appendNew(out, filepath.Clean(d))
				}
			}
		}
	}
	out = appendNew(out, compilerDirs()...)
	if srv.Bin != "" {
		if real, err := filepath.EvalSymlinks(srv.Bin); err == nil {
			out = appendNew(out, filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "clang"))
		}
	}
	return out
}

// compilerDirs are the default include directories of the system's C and
// C++ compilers (cc and c++ on PATH), asked once.
var compilerDirs = sync.OnceValue(func() []string {
	var out []string
	for _, q := range [][]string{{"cc", "c"}, {"c++", "c++"}} {
		bin, err := exec.LookPath(q[0])
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), askTimeout)
		cmd := exec.CommandContext(ctx, bin, "-E", "-v", "-x", q[1], os.DevNull)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		cancel()
		if err == nil {
			out = appendNew(out, searchList(stderr.String())...)
		}
	}
	for _, d := range []string{"/usr/local/include", "/usr/include"} {
		if exists(d) && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
})
