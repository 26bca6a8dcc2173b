// Package gitrev reads a git revision's files under a root, read-only,
// for the baseline that devbroker check and lint --since REV compare
// their findings with, and that devbroker format --only changed --since
// REV tells the changed lines by ([engine.BaseSource]).
//
// It runs git's plumbing and nothing else: rev-parse to resolve the
// revision, ls-tree to list its files under the root, cat-file --batch to
// read the blobs that differ from the disk. None of these runs a hook,
// and the configuration keys that make git run a program (core.fsmonitor)
// or reach a remote (a partial clone's lazy fetch, a transport, a
// credential helper) are overridden on the command line, which wins over
// the repository's own configuration; replace refs are ignored, so the
// content is the revision's own. The environment's GIT_ variables
// (GIT_DIR, GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF, ...) are dropped.
// Content filters (clean and smudge, text conversion) never run: the disk
// is compared with a blob by hashing its bytes as git hashes a blob, so a
// file whose checkout converts line endings counts as changed, which
// costs a larger baseline, never a wrong one (findings are matched by
// line text, without terminators). go-git is not a dependency of
// devbroker; git's plumbing is what every machine with a repository has.
package gitrev

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/internal/procgroup"
)

// maxFileBytes is the largest disk file compared with the revision; a
// larger one is taken to be unchanged. A file of the revision larger than
// it that differs from the disk is not read: Bases fails.
var maxFileBytes int64 = 64 << 20

// entry is a regular file of the revision's tree.
type entry struct {
	oid  string
	size int64
}

// Source is a revision's content under a root: an [engine.BaseSource].
type Source struct {
	fs     *rootfs.FS
	git    string
	rev    string
	commit string
	format string // sha1 or sha256
	tree   map[string]entry
}

// Open resolves rev in the git repository that holds fsys's root and
// lists the revision's files under the root. It fails, saying what to do,
// when git is missing, the root is in no repository, or rev names no
// commit there.
func Open(ctx context.Context, fsys *rootfs.FS, rev string) (*Source, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n\r") {
		return nil, fmt.Errorf("--since %q is not a revision: give a commit, branch or tag, like HEAD, HEAD~1 or main", rev)
	}
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, errors.New("--since needs git, which is not on PATH: install git, or leave out --since (and format's --only changed, which needs it)")
	}
	s := &Source{fs: fsys, git: git, rev: rev, tree: map[string]entry{}}
	out, err := s.run(ctx, nil, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if _, terr := s.run(ctx, nil, "rev-parse", "--git-dir"); terr != nil {
			return nil, fmt.Errorf("--since %s: %s is not in a git repository (%v); run in a repository, or leave out --since (and format's --only changed, which needs it)", rev, fsys.Root(), terr)
		}
		return nil, fmt.Errorf("--since %s: no commit of that name in the repository of %s: give a commit, branch or tag it has (git log lists them)", rev, fsys.Root())
	}
	s.commit = strings.TrimSpace(string(out))
	s.format = "sha1"
	if out, err := s.run(ctx, nil, "rev-parse", "--show-object-format"); err == nil && strings.TrimSpace(string(out)) == "sha256" {
		s.format = "sha256"
	}
	// From the root, ls-tree lists the root's part of the tree, its paths
	// relative to the root.
	out, err = s.run(ctx, nil, "ls-tree", "-r", "-z", "-l", s.commit)
	if err != nil {
		return nil, fmt.Errorf("--since %s: listing its files: %w", rev, err)
	}
	s.tree = parseTree(out)
	return s, nil
}

// parseTree reads git ls-tree -r -z -l's records ("MODE TYPE OID
// SIZE\tPATH", NUL-terminated): the regular files, by path. A symlink or a
// submodule has no source of its own, and a path that is not a clean
// relative path (none from git is) is left out.
func parseTree(out []byte) map[string]entry {
	tree := map[string]entry{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 4 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") || !isHex(f[2]) {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || size < 0 {
			continue
		}
		if c, err := rootfs.Clean(string(p)); err == nil && c == string(p) {
			tree[c] = entry{oid: f[2], size: size}
		}
	}
	return tree
}

// isHex reports whether s is an object id: 40 or 64 lowercase hex digits.
func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Name is the revision as given.
func (s *Source) Name() string { return s.rev }

// Commit is the commit the revision resolved to.
func (s *Source) Commit() string { return s.commit }

// Bases returns the revision's content of every file, among files and
// the revision's files under the root, whose content there differs from
// the disk's (see [engine.BaseSource]).
func (s *Source) Bases(ctx context.Context, files []string) (map[string]engine.Base, error) {
	paths := slices.Concat(files, mapsKeys(s.tree))
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := map[string]engine.Base{}
	var want []string // the blobs to read
	wanted := map[string][]string{}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, tracked := s.tree[p]
		data, _, err := s.fs.ReadFileMax(p, maxFileBytes)
		var tooLarge *rootfs.TooLargeError
		switch {
		case errors.As(err, &tooLarge):
			continue
		case errors.Is(err, fs.ErrNotExist):
			if !tracked {
				continue
			}
		case err != nil:
			continue // not a regular file now: nothing a driver reads as a source
		case !tracked:
			out[p] = engine.Base{} // added since
			continue
		case s.blobID(data) == e.oid:
			continue
		}
		if e.size > maxFileBytes {
			// Not read into memory; an unknown baseline is no baseline.
			return nil, fmt.Errorf("--since %s: %s is %d bytes at %s, over the %d bytes read of a file: its content there is not compared; leave it out of the PATHs, or compare with a revision where it is smaller", s.rev, p, e.size, s.rev, maxFileBytes)
		}
		if _, ok := wanted[e.oid]; !ok {
			want = append(want, e.oid)
		}
		wanted[e.oid] = append(wanted[e.oid], p)
	}
	if len(want) == 0 {
		return out, nil
	}
	blobs, err := s.catFile(ctx, want)
	if err != nil {
		return nil, err
	}
	for oid, ps := range wanted {
		for _, p := range ps {
			out[p] = engine.Base{Content: blobs[oid], Exists: true}
		}
	}
	return out, nil
}

// blobID is the object id git gives data as a blob.
func (s *Source) blobID(data []byte) string {
	var h hash.Hash
	if s.format == "sha256" {
		h = sha256.New()
	} else {
		h = sha1.New()
	}
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return fmt.Sprintf("%x", h.Sum(nil))
}

// catFile reads the blobs oids with one git cat-file --batch.
func (s *Source) catFile(ctx context.Context, oids []string) (map[string][]byte, error) {
	in := strings.Join(oids, "\n") + "\n"
	out, err := s.run(ctx, strings.NewReader(in), "cat-file", "--batch")
	if err != nil {
		return nil, fmt.Errorf("--since %s: reading its files: %w", s.rev, err)
	}
	blobs, err := parseBatch(out, oids)
	if err != nil {
		return nil, fmt.Errorf("--since %s: %w", s.rev, err)
	}
	return blobs, nil
}

// parseBatch reads git cat-file --batch's answer to oids: for each, in
// order, "OID blob SIZE\n", SIZE bytes and a newline. Any other answer
// ("OID missing", another type, a short read) is an error naming it.
func parseBatch(out []byte, oids []string) (map[string][]byte, error) {
	r := bufio.NewReader(bytes.NewReader(out))
	blobs := map[string][]byte{}
	for _, oid := range oids {
		head, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file ended before %s", oid)
		}
		f := strings.Fields(head)
		if len(f) != 3 || f[0] != oid || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file answered %q for %s", strings.TrimSpace(head), oid)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 || n > len(out) { // a size past the output is no answer
			return nil, fmt.Errorf("git cat-file answered %q for %s", strings.TrimSpace(head), oid)
		}
		data := make([]byte, n+1) // the content, then a newline
		if _, err := io.ReadFull(r, data); err != nil || data[n] != '\n' {
			return nil, fmt.Errorf("git cat-file's answer for %s is shorter than its size %d", oid, n)
		}
		blobs[oid] = data[:n]
	}
	return blobs, nil
}

// safeConfig overrides, on git's command line, the configuration that
// could make git run a program or reach a remote.
var safeConfig = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=" + os.DevNull,
	"-c", "protocol.allow=never",
	"-c", "credential.helper=",
	"-c", "core.sshCommand=false",
	"--no-replace-objects",
}

// run runs git's plumbing in the root with stdin, and returns its
// standard output.
func (s *Source) run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, s.git, append(slices.Clone(safeConfig), args...)...)
	cmd.Dir = s.fs.Root()
	cmd.Env = safeEnv(os.Environ())
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// Cancelled, git goes with whatever it started, and a process that
	// kept its output open does not hold the answer.
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[:500] + "..."
		}
		if msg == "" {
			return nil, fmt.Errorf("git %s: %w", args[0], err)
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

// safeEnv is env without git's own variables (GIT_DIR, GIT_CONFIG_*,
// GIT_EXTERNAL_DIFF, GIT_ASKPASS, ...) and the askpass program, with the
// ones that keep git from prompting, fetching what a partial clone lacks,
// following replace refs or taking locks.
func safeEnv(env []string) []string {
	out := make([]string, 0, len(env)+6)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "SSH_ASKPASS" || k == "LC_ALL" {
			continue
		}
		out = append(out, kv)
	}
	return append(out,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_NO_LAZY_FETCH=1",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_PAGER=cat",
		"LC_ALL=C",
	)
}

func mapsKeys(m map[string]entry) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
