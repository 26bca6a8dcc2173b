package lspdriver

// This file defines [Driver.Probe]: find the server, read its version,
// and start it on a tiny module with a type error to see the diagnostic.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/privtemp"
	"github.com/devbroker/devbroker/lsp"
)

// goSmoke is the smoke test for Go servers without a configured one.
const goSmoke = "package smoke\n\nvar x int = \"not an int\"\n"

// Probe finds the server (gopls by lsp.FindServer's rule, any other on
// PATH), records its version (version_command, or `gopls version`), and
// starts it, outside the shared servers, on a temporary root holding the
// smoke file and the smoke's other files (a Go server's gets a go.mod). A Go server must report a diagnostic for the smoke file's
// type error; another server must answer without failing. A probe that
// finds the server not working stops the root's server an early start
// began (see start.go).
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := d.probe(ctx)
	p.Took = time.Since(start)
	if p.State != capabilities.Found {
		d.letGo()
	}
	return p
}

func (d *Driver) probe(ctx context.Context) capabilities.Probe {
	root := d.root
	if root == "" {
		root, _ = os.Getwd()
	}
	bin, how, err := lsp.FindServer(ctx, d.cfg.Command[0], root, d.cfg.ProjectTools)
	if err != nil {
		reason := err.Error()
		if hint := d.installHint(); hint != "" {
			reason += "; install: " + hint
		}
		return capabilities.Probe{State: capabilities.Missing, Reason: reason}
	}
	p := capabilities.Probe{State: capabilities.Found, Path: bin}
	if how != "PATH" {
		p.Path = bin + " (" + how + ")"
	}
	argv := d.cfg.VersionCommand
	if len(argv) > 0 && argv[0] == d.cfg.Command[0] {
		argv = append([]string{bin}, argv[1:]...)
	}
	if len(argv) == 0 && d.isGopls() {
		argv = []string{bin, "version"}
	}
	if len(argv) > 0 {
		v, err := lsp.Version(ctx, argv)
		if err != nil {
			// A server that cannot say its version is usually not
			// installed whole (a rustup proxy for a component not
			// added): say how to install it.
			p.State, p.Reason = capabilities.Failed, err.Error()
			if d.cfg.Install != "" && !d.isGopls() {
				p.Reason += "; install: " + d.cfg.Install
			}
			return p
		}
		p.Version = v
	}
	reason, offers := d.smoke(ctx, bin)
	if reason != "" {
		p.State, p.Reason = capabilities.Failed, reason
	}
	p.Offers = offers
	return p
}

// offered is what a server's initialize answer offers (lsp.Server.Offers)
// as the driver's kinds: check, lint and format always (diagnostics and
// formatting are asked as before), a language kind when the server offers
// its request (symbols: a document's symbols). nil (no server ran) is
// every kind.
func offered(methods map[string]bool) []engine.Kind {
	if methods == nil {
		return nil
	}
	out := []engine.Kind{engine.Check, engine.Lint, engine.Format}
	for _, k := range engine.LanguageKinds() {
		if methods[languageKinds[k]] {
			out = append(out, k)
		}
	}
	return out
}

// smoke runs the server on a temporary root; "" means it passed. A
// failure other than a timeout ends with the install hint. It returns the
// kinds the server offers (see offered). A server with nothing to try it
// on is only started, for its initialize answer: a failure to start is
// then the request's to report, as before.
func (d *Driver) smoke(ctx context.Context, bin string) (string, []engine.Kind) {
	name, content, expect := "smoke.go", goSmoke, true
	if d.cfg.Smoke != nil {
		name, content, expect = d.cfg.Smoke.File, d.cfg.Smoke.Content, false
	} else if d.langID != "go" {
		return "", d.initializeOnly(ctx, bin)
	}
	root, err := smokeRoot()
	if err != nil {
		return err.Error(), nil
	}
	defer os.RemoveAll(root)
	files := map[string]string{name: content}
	if d.langID == "go" {
		files["go.mod"] = "module smoke\n\ngo 1.21\n"
	}
	if d.cfg.Smoke != nil {
		for f, c := range d.cfg.Smoke.Files {
			if _, ok := files[f]; !ok {
				files[f] = c
			}
		}
	}
	if err := writeSmoke(root, files); err != nil {
		return err.Error(), nil
	}
	file := filepath.Join(root, filepath.FromSlash(name))
	cfg := d.config(bin, root)
	cfg.IdleTimeout = -1
	srv := lsp.NewServer(cfg)
	defer srv.Close()
	rep, err := srv.Diagnose(ctx, []lsp.Document{{Path: file, LanguageID: d.languageID(name), Text: content}}, []string{file})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Sprintf("the smoke test timed out: %v", err), nil
		}
		// A server that fails to start often lacks a part the install
		// hint names (typescript-language-server without typescript).
		reason := fmt.Sprintf("the smoke test failed: %v", err)
		if d.cfg.Install != "" && !d.isGopls() {
			reason += "; install: " + d.cfg.Install
		}
		return reason, nil
	}
	if expect && len(rep.Files[file]) == 0 {
		return fmt.Sprintf("the smoke test's type error was not reported (%s answered with no diagnostics for %s)", d.name, name), nil
	}
	return "", offered(srv.Offers())
}

// smokeRoot makes the smoke test's temporary root, symlinks resolved.
func smokeRoot() (string, error) {
	root, err := privtemp.Dir("lsp-smoke")
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		return resolved, nil
	}
	return root, nil
}

// initializeOnly starts the server on an empty temporary root for its
// initialize answer; nil (every kind) when it does not start.
func (d *Driver) initializeOnly(ctx context.Context, bin string) []engine.Kind {
	root, err := smokeRoot()
	if err != nil {
		return nil
	}
	defer os.RemoveAll(root)
	cfg := d.config(bin, root)
	cfg.IdleTimeout = -1
	srv := lsp.NewServer(cfg)
	defer srv.Close()
	if srv.Start(ctx) != nil {
		return nil
	}
	return offered(srv.Offers())
}

// writeSmoke writes the smoke test's files (relative slash paths) under
// root.
func writeSmoke(root string, files map[string]string) error {
	for name, content := range files {
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return fmt.Errorf("the smoke file %q is not a relative path inside the smoke test's root", name)
		}
		file := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
