package external

// This file defines [Driver.Probe]: find the command, read its version, and
// run the smoke test.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// versionTimeout bounds the version command.
// It only stops a command that hangs, so it allows for a loaded machine.
const versionTimeout = time.Minute

// Probe finds the command on PATH, records its version (the first line of
// the version command's output that has a digit) and runs the smoke test, if one is configured,
// in a temporary root. A smoke run that crashes or times out fails the
// probe; findings do not.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := d.probe(ctx)
	p.Took = time.Since(start)
	return p
}

// lookup finds the command's binary: on PATH, or a project-local tool
// ("node_modules/.bin/eslint") under the driver's directory in the root.
// name is what it looked for.
func (d *Driver) lookup() (bin, name string, err error) {
	name = d.cfg.Command[0]
	if strings.ContainsRune(name, filepath.Separator) && !filepath.IsAbs(name) {
		name = filepath.Join(d.env.Root, filepath.FromSlash(d.cfg.Dir), name)
	}
	if bin, err = exec.LookPath(name); err != nil {
		return "", name, err
	}
	if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	return bin, name, nil
}

// Locate finds the files the probe's result depends on: the command's
// binary and the version command's (see capabilities.Locator).
func (d *Driver) Locate(context.Context) ([]string, error) {
	bin, _, err := d.lookup()
	if err != nil {
		return nil, err
	}
	out := []string{bin}
	if v := d.cfg.VersionCommand; len(v) > 0 && v[0] != d.cfg.Command[0] {
		vbin, err := exec.LookPath(v[0])
		if err != nil {
			return nil, err
		}
		out = append(out, vbin)
	}
	return out, nil
}

func (d *Driver) probe(ctx context.Context) capabilities.Probe {
	bin, name, err := d.lookup()
	if err != nil {
		reason := fmt.Sprintf("%s is not on PATH", d.cfg.Command[0])
		if name != d.cfg.Command[0] {
			reason = fmt.Sprintf("%s is not there", name)
		}
		if d.cfg.Install != "" {
			reason += "; install: " + d.cfg.Install
		}
		return capabilities.Probe{State: capabilities.Missing, Reason: reason}
	}
	p := capabilities.Probe{State: capabilities.Found, Path: bin}
	if len(d.cfg.VersionCommand) > 0 {
		v, err := d.version(ctx)
		if err != nil {
			return capabilities.Probe{State: capabilities.Failed, Path: bin, Reason: err.Error()}
		}
		p.Version = v
	}
	if d.cfg.Smoke != nil {
		if reason := d.smoke(ctx); reason != "" {
			p.State, p.Reason = capabilities.Failed, reason
		}
	}
	return p
}

// version runs the version command and returns the first line it prints
// that has a digit ("version: 0.9.0" after ShellCheck's banner), or else
// its first non-empty line.
func (d *Driver) version(ctx context.Context) (string, error) {
	dir := d.env.Root
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = os.TempDir()
	}
	t := min(versionTimeout, d.timeout)
	o := run(ctx, invocation{argv: d.cfg.VersionCommand, dir: dir, env: d.cfg.Env}, limits{idle: t, total: t}, nil)
	what := "the version command " + strings.Join(d.cfg.VersionCommand, " ")
	if st, msg := d.failure(o, what); st != "" {
		return "", fmt.Errorf("%s", msg)
	}
	if o.code != 0 {
		return "", fmt.Errorf("%s exited with code %d%s", what, o.code, stderrTail(o))
	}
	out := o.stdout.buf.String()
	if strings.TrimSpace(out) == "" {
		out = o.stderr.buf.String()
	}
	first := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if strings.ContainsAny(line, "0123456789") {
			return line, nil
		}
		if first == "" {
			first = line
		}
	}
	return first, nil
}

// smoke runs the driver on its smoke input in a temporary root, with the
// file both on disk and in the workspace, and returns why it failed, or "".
func (d *Driver) smoke(ctx context.Context) string {
	sm := d.cfg.Smoke
	file := sm.File
	if file == "" {
		file = "smoke.txt"
	}
	root, err := tempDir("smoke")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(root)
	doc := text.FromString(sm.Content)
	if err := capabilities.WriteAt(root, file, doc); err != nil {
		return err.Error()
	}
	kind := d.kinds[0]
	res := d.Run(ctx, &capabilities.Request{
		Kind: kind, Root: root, Files: []string{file},
		All: map[string]*text.Doc{file: doc}, Changed: []string{file},
	})
	if res.Status != engine.StatusOK {
		return fmt.Sprintf("the smoke test (%s %s) ended %s: %s", kind, file, res.Status, res.Message)
	}
	return ""
}
