package lsp

// This file defines the go command's inputs outside a root ([Inputs.Go]):
// what gopls's answers depend on besides the files under the root.
//
//   - go.work and go.mod in every parent directory up to the file
//     system's root (a go.work appearing above the root changes the
//     build), the file $GOWORK names, and the go env file (go env -w);
//   - the directories that the go.mod and go.work files in effect name in
//     local replace directives and use directives (monorepos replace
//     ../dep), and the module directory above the root when the root has
//     no go.mod of its own: every file in them, by metadata.
//
// These are found again whenever a go.mod or go.work file among the
// inputs changes (under the root, in a parent directory, or the go.mod of
// a directory found: a used module's replace directives apply), and at
// every scan while the go command cannot say which go.work is in effect. The go.mod and go.work files read for that may lie
// outside the root: they are parsed only for the directories they name,
// and nothing of them reaches an answer.
//
// gopls is not the authority on every such input: with a go.work in
// effect that does not use the root's module (one appearing in a parent
// directory), gopls answers clean, even started afresh, while every go
// command fails. So when a go.work is in effect, `go list -m` is run in
// the root whenever those inputs change, and its failure makes every
// answer unverified, with the go command's reason.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/internal/gomod"
)

// goState is what the tracker knows of the go command's inputs.
type goState struct {
	done    bool
	singles []string // files outside the root, existing or not
	trees   []string // directories outside the root
	why     map[string]string
	problem string // go list -m's failure, or ""
	// retry says the go command could not tell which go.work is in
	// effect: find again at the next scan.
	retry bool
	// mods are the stamps of the module files last read (go.mod, go.work
	// under the root and among singles), to see when to read them again.
	mods map[string]fileState
}

// isModFile reports whether p is a file that defines modules or a
// workspace.
func isModFile(p string) bool {
	switch filepath.Base(p) {
	case "go.mod", "go.work":
		return true
	}
	return false
}

// inTestdata reports whether p lies under a testdata directory, which the
// go command ignores.
func inTestdata(p string) bool {
	return slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "testdata")
}

// update brings the outside inputs up to date after the root's scan: the
// single files are stat'ed, and when a module file changed (or on the
// first scan) the directories and the go.work check are found again. It
// returns the problems that keep answers from being verified.
func (g *goState) update(t *tracker, w *walk) []string {
	if !g.done {
		g.singles = goSingles(t.root, t.env)
	}
	for _, f := range g.singles {
		w.single(f)
	}
	w.wait()
	mods := g.modStates(w)
	if g.done && !g.retry && mapsEqualStates(mods, g.mods) {
		return g.problems()
	}
	g.done = true
	g.find(t, mods)
	g.mods = g.modStates(w) // with the go.mod files of the directories found
	return g.problems()
}

// modStates are the states of the module files the directories outside
// the root depend on: the go.mod and go.work files under the root and
// among the singles, as the walk found them, and the go.mod file of every
// directory outside the root last found (a used module's replace
// directives apply in workspace mode).
func (g *goState) modStates(w *walk) map[string]fileState {
	mods := map[string]fileState{}
	w.mu.Lock()
	for _, d := range w.dirs {
		for i := range d.ds.ents {
			if e := &d.ds.ents[i]; e.found && (e.name == "go.mod" || e.name == "go.work") && !inTestdata(e.path) {
				mods[e.path] = e.state
			}
		}
	}
	for _, s := range w.singles {
		if isModFile(s.path) && !inTestdata(s.path) {
			mods[s.path] = s.state
		}
	}
	w.mu.Unlock()
	for dir := range g.why {
		p := filepath.Join(dir, "go.mod")
		if fs, _, _, ok := w.file(p); ok {
			mods[p] = fs
		}
	}
	return mods
}

func mapsEqualStates(a, b map[string]fileState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if o, ok := b[k]; !ok || o.self != v.self || o.target != v.target || o.sum != v.sum {
			return false
		}
	}
	return true
}

// problems checks that the outside directories exist and returns them
// with the go.work check's failure.
func (g *goState) problems() []string {
	var out []string
	for _, dir := range g.trees {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			why := "does not exist or is not a directory"
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				why = "cannot be read: " + err.Error()
			}
			out = append(out, dir+" ("+g.why[dir]+") "+why+"; the build reads it: create it or change that directive")
		}
	}
	if g.problem != "" {
		out = append(out, g.problem)
	}
	return out
}

// goSingles lists the files outside root the go command reads to find its
// modules and settings: go.work and go.mod in every parent directory,
// $GOWORK and the go env file.
func goSingles(root string, env []string) []string {
	var out []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		out = append(out, filepath.Join(dir, "go.work"), filepath.Join(dir, "go.mod"))
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if w := envValue(env, "GOWORK"); w != "" && w != "off" && filepath.IsAbs(w) {
		out = append(out, filepath.Clean(w))
	}
	if e := envValue(env, "GOENV"); e != "" && e != "off" && filepath.IsAbs(e) {
		out = append(out, e)
	} else if dir, err := os.UserConfigDir(); err == nil && e != "off" {
		out = append(out, filepath.Join(dir, "go", "env"))
	}
	return out
}

// envValue is name's value in env (the server's additions) or else in
// the process's environment.
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return os.Getenv(name)
}

// find reads the module files in effect for the directories outside the
// root they name, and checks a go.work in effect with go list -m.
func (g *goState) find(t *tracker, mods map[string]fileState) {
	root := t.root
	g.trees, g.why, g.problem, g.retry = nil, map[string]string{}, "", false
	add := func(dir, why string) {
		dir = filepath.Clean(dir)
		if under(root, dir) {
			return
		}
		if _, ok := g.why[dir]; !ok {
			g.trees = append(g.trees, dir)
			g.why[dir] = why
		}
	}
	for p := range mods {
		if under(root, p) {
			g.dirs(p, add)
		}
	}
	gowork, gomod, msg := goEnvIn(root, t.env)
	if msg != "" {
		g.retry = true
		g.problem = "go env GOWORK GOMOD fails in the root (" + msg + "), so whether a go.work outside it changes the build cannot be checked: make the go command work there (devbroker tries again at the next request)"
	}
	if gomod != "" && gomod != os.DevNull && !under(root, gomod) {
		add(filepath.Dir(gomod), "the directory of the module "+gomod+" that holds the root")
		g.dirs(gomod, add)
	}
	if gowork != "" && gowork != "off" {
		if !under(root, gowork) {
			g.dirs(gowork, add)
		}
		if msg := goWorkUses(root, t.env); msg != "" {
			g.problem = "the go.work in effect (" + gowork + ") does not build this root: " + msg + "; gopls cannot check against it: add the root's module to it (go work use), or run devbroker with GOWORK=off"
		}
	}
	// Directories nested in others are scanned with them.
	slices.Sort(g.trees)
	kept := g.trees[:0]
	for _, d := range g.trees {
		if len(kept) == 0 || !under(kept[len(kept)-1], d) {
			kept = append(kept, d)
		}
	}
	g.trees = kept
}

// dirs calls add for each local directory the module file at p names in
// replace and use directives (for go.work, also each used module's own
// replaces).
func (g *goState) dirs(p string, add func(dir, why string)) {
	if filepath.Base(p) != "go.work" {
		g.replaces(p, add)
		return
	}
	wf, err := gomod.ReadWork(p)
	if err != nil {
		return
	}
	for _, u := range wf.Use {
		dir := localDir(p, u.Path)
		add(dir, "a directory that "+p+" uses")
		g.replaces(filepath.Join(dir, "go.mod"), add)
	}
	for _, r := range gomod.LocalReplaces(wf.Replace) {
		add(localDir(p, r.New.Path), "a replace directory of "+p)
	}
}

// replaces calls add for each local replace directory of the go.mod at p.
func (g *goState) replaces(p string, add func(dir, why string)) {
	mf, err := gomod.Read(p)
	if err != nil {
		return
	}
	for _, r := range gomod.LocalReplaces(mf.Replace) {
		add(localDir(p, r.New.Path), "a replace directory of "+p)
	}
}

// localDir is the directory a module file at p names as rel.
func localDir(p, rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(filepath.Dir(p), filepath.FromSlash(rel))
}

// under reports whether p is dir or below it.
func under(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// goEnvIn runs `go env GOWORK GOMOD` in root with the server's
// environment; when it fails, empty values and why.
func goEnvIn(root string, env []string) (gowork, gomod, failure string) {
	out, msg := goIn(root, env, "env", "GOWORK", "GOMOD")
	if msg != "" {
		return "", "", msg
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		return "", "", "it printed " + strconv.Itoa(len(lines)) + " lines, not 2"
	}
	return strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1]), ""
}

// goWorkUses runs `go list -m` in root, in workspace mode: it returns why
// the go command cannot build there (its error, or that no module of the
// workspace holds the root), else "".
func goWorkUses(root string, env []string) string {
	out, msg := goIn(root, env, "list", "-m", "-f", "{{.Dir}}")
	if msg != "" {
		return "go list -m: " + msg
	}
	for _, dir := range strings.Split(strings.TrimSpace(out), "\n") {
		if dir = strings.TrimSpace(dir); dir != "" && under(dir, root) {
			return ""
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil && under(real, root) {
			return ""
		}
	}
	return "none of its modules holds the root (go build here fails: directory prefix . does not contain modules listed in go.work)"
}

// goIn runs the go command in root; it returns its output, or the first
// lines of its error output when it fails.
func goIn(root string, env []string, args ...string) (string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err == nil {
		return string(out), ""
	}
	msg := strings.TrimSpace(stderr.String())
	if msg == "" {
		msg = err.Error()
	}
	if lines := strings.Split(msg, "\n"); len(lines) > 3 {
		msg = strings.Join(lines[:3], "; ")
	}
	return "", strings.ReplaceAll(msg, "\n", "; ")
}

// GoBuild runs `go build -o <null device> pkgs...` in dir with env added
// to the process's environment, for the packages gopls does not fully
// check (see [Server.Blind]); it returns the command's combined output
// and whether it built.
func GoBuild(ctx context.Context, dir string, env []string, pkgs []string) (string, bool) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-o", os.DevNull}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}
