package main

// This file runs the rename measurement: devbroker's in-memory dev_plan
// [rename, check] (nothing written; discard resets the session), against
// gopls rename -w and go build ./... on a copy of the module that is put
// back from the pristine module after each round.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// measureRename warms both sides with one round, measures renameN rounds
// (alternating which goes first), then checks the bytes: devbroker's plan
// [rename, check, write] on its copy must leave the tree gopls rename -w
// leaves.
func measureRename(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	gRoot, err := c.copyOf("rename-gopls")
	if err != nil {
		return err
	}
	pristine, err := treeFiles(gRoot)
	if err != nil {
		return err
	}
	d := res.dev
	tg := c.rename
	res.rename.target = tg.String()
	pos := fmt.Sprintf("%s:%d:%d", filepath.Join(gRoot, filepath.FromSlash(tg.file)), tg.line, byteColumn(gRoot, tg))
	res.renameCmd = fmt.Sprintf("gopls rename -w %s:%d:%d %s && go build ./...", tg.file, tg.line, byteColumn(gRoot, tg), c.newName)
	logf("rename of %s: one round not counted, then %d", tg, o.renameN)
	for round := range o.renameN + 1 {
		var gFiles, dFiles []string
		var gt, dt time.Duration
		sides := []func() error{
			func() (err error) {
				gFiles, gt, err = goplsRename(ctx, t, gRoot, pos, c.newName, pristine)
				return err
			},
			func() (err error) {
				if dFiles, dt, err = d.renamePlan(ctx, tg, c.newName, false); err != nil {
					return fmt.Errorf("devbroker: %w", err)
				}
				return d.discard(ctx)
			},
		}
		if d == nil {
			sides = sides[:1]
		}
		if err := both(sides, round); err != nil {
			return err
		}
		ok, why := slices.Equal(dFiles, gFiles), ""
		if !ok {
			why = fmt.Sprintf("devbroker changed %d files (%s), gopls %d (%s)", len(dFiles), short(dFiles), len(gFiles), short(gFiles))
		}
		switch {
		case round == 0:
		case d == nil:
			res.rename.addGopls(gt, len(gFiles))
		default:
			res.rename.add(dt, gt, ok, why, len(gFiles))
		}
	}
	if d == nil {
		return nil
	}
	return compareRenamedTrees(ctx, t, res, c, gRoot, pos)
}

// compareRenamedTrees renames once more on both sides, this time written
// (dev_plan [rename, check, write]), and compares the trees byte for byte.
func compareRenamedTrees(ctx context.Context, t *tools, res *results, c *corpus, gRoot, pos string) error {
	logf("comparing the renamed trees byte for byte")
	if err := renameOnce(ctx, t, gRoot, pos, c.newName); err != nil {
		return err
	}
	if _, _, err := res.dev.renamePlan(ctx, c.rename, c.newName, true); err != nil {
		return fmt.Errorf("devbroker, writing the rename: %w", err)
	}
	diff, err := diffTrees(res.devRoot, gRoot)
	if err != nil {
		return err
	}
	res.bytesSame = len(diff) == 0
	if !res.bytesSame {
		res.bytesWhy = fmt.Sprintf("%d files differ after the written rename: %s", len(diff), short(diff))
		logf("%s", res.bytesWhy)
	}
	return nil
}

// goplsRename runs gopls rename -w and go build ./... in root, timed
// together, and returns the files it changed; then puts them back.
func goplsRename(ctx context.Context, t *tools, root, pos, newName string, pristine map[string][]byte) ([]string, time.Duration, error) {
	t0 := time.Now()
	if err := renameOnce(ctx, t, root, pos, newName); err != nil {
		return nil, 0, err
	}
	if err := runIn(ctx, t, root, "go", "build", "./..."); err != nil {
		return nil, 0, err
	}
	took := time.Since(t0)
	now, err := treeFiles(root)
	if err != nil {
		return nil, 0, err
	}
	var changed []string
	for p, data := range now {
		if old, ok := pristine[p]; !ok || !bytes.Equal(old, data) {
			changed = append(changed, p)
		}
	}
	slices.Sort(changed)
	for _, p := range changed { // put back: a file gopls added goes
		abs := filepath.Join(root, filepath.FromSlash(p))
		if old, ok := pristine[p]; ok {
			err = os.WriteFile(abs, old, 0o644)
		} else {
			err = os.Remove(abs)
		}
		if err != nil {
			return nil, 0, err
		}
	}
	return changed, took, nil
}

// renameOnce runs gopls rename -w at pos (file:line:column, the column in
// bytes).
func renameOnce(ctx context.Context, t *tools, root, pos, newName string) error {
	return runIn(ctx, t, root, t.gopls, "rename", "-w", pos, newName)
}

// runIn runs a command in dir; a failure is an error with its output.
func runIn(ctx context.Context, t *tools, dir, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, t.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	return nil
}

// byteColumn is the target's column in bytes (1-based), as the gopls
// command line takes it.
func byteColumn(root string, tg *target) int {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(tg.file)))
	if err != nil {
		return tg.column
	}
	lines := strings.Split(string(data), "\n")
	if tg.line > len(lines) {
		return tg.column
	}
	runes := []rune(lines[tg.line-1])
	return len(string(runes[:min(tg.column-1, len(runes))])) + 1
}

// short lists at most five paths.
func short(paths []string) string {
	if len(paths) > 5 {
		return strings.Join(paths[:5], ", ") + fmt.Sprintf(" and %d more", len(paths)-5)
	}
	return strings.Join(paths, ", ")
}
