// Package gofumpt is the gofumpt driver: Go formatting by
// mvdan.cc/gofumpt/format, linked into devbroker, over the workspace
// content (which may exist only in memory).
//
// The principal types are [Driver] and [Type], the entry for the driver
// registry. The driver formats (format) and, when a configuration routes
// lint to it, reports files that are not gofumpt-formatted (lint; with
// fix: true it formats them).
//
// Behaviour, decided here and tested:
//
//   - Options come from the nearest go.mod above each file, looked up in
//     the workspace first and then on disk, and above the root in the
//     root's module context (the rule staticcheck follows too): see
//     module.go.
//   - Output is byte-identical to `gofumpt` run on the same content with
//     the same -lang and -modpath, except for the line endings and BOM,
//     which are kept: a CRLF file is formatted in its LF form and written
//     back with CRLF (a file with mixed endings gets its dominant ending,
//     with an info diagnostic saying so), and a BOM stays. A missing final
//     newline is added, as gofumpt does: it is part of the format.
//   - Generated files ("// Code generated ... DO NOT EDIT." before the
//     package clause, the CLI's rule) are left alone.
//   - A syntax error is data, not a failure: an error diagnostic with its
//     position, no edit, status ok. A panic inside gofumpt is a failure:
//     status crashed, naming the file.
//
// This file defines the driver, its constructor and its probe.
package gofumpt

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"mvdan.cc/gofumpt/format"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// Type is the "gofumpt" driver type.
var Type = capabilities.Type{Name: "gofumpt", Doc: doc, New: New}

const doc = "gofumpt, linked in: formats Go files (a stricter gofmt) with the language version and module path of their go.mod."

// linkedVersion is the gofumpt version in go.mod, for binaries built
// without module information.
const linkedVersion = "v0.10.0"

// Driver formats Go files with the linked-in gofumpt. It is safe for
// concurrent use.
type Driver struct {
	name  string
	doc   string
	calls capabilities.Calls
}

// New builds a gofumpt driver named name. It does nothing else: no
// process, no disk.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	d := &Driver{name: name, doc: doc}
	if cfg != nil && cfg.Doc != "" {
		d.doc = cfg.Doc
	}
	return d, nil
}

// Spec describes the driver.
func (d *Driver) Spec() capabilities.Spec {
	return capabilities.Spec{
		Name:  d.name,
		Type:  Type.Name,
		Kinds: []engine.Kind{engine.Format, engine.Lint},
		Doc:   d.doc,
	}
}

// Canonical is true: gofumpt's output, as gofmt's, depends on the code
// alone, so a file formatted before a change needs formatting only where
// the change does.
func (d *Driver) Canonical() bool { return true }

var _ capabilities.Canonical = (*Driver)(nil)

// Version is the linked-in gofumpt's module version, from the binary's
// build information ("v0.12.0" when that is missing).
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path != "mvdan.cc/gofumpt" {
				continue
			}
			if m.Replace != nil && m.Replace.Version != "" {
				return m.Replace.Version
			}
			if m.Version != "" && m.Version != "(devel)" {
				return m.Version
			}
		}
	}
	return linkedVersion
}

// The smoke test exercises two gofumpt rules that gofmt lacks: no empty
// line at the start of a block, and 0o octal literals from go1.13 on.
const (
	smokeIn   = "package smoke\n\nfunc f() {\n\n\tprintln(0755)\n}\n"
	smokeWant = "package smoke\n\nfunc f() {\n\tprintln(0o755)\n}\n"
)

// Probe reports gofumpt as linked in, with its version, after formatting a
// tiny badly formatted file and checking the output.
func (d *Driver) Probe(ctx context.Context) capabilities.Probe {
	start := time.Now()
	p := capabilities.Probe{State: capabilities.Found, Version: Version(), Path: "linked in"}
	out, err := safeSource([]byte(smokeIn), format.Options{LangVersion: "go1.13"})
	switch {
	case err != nil:
		p.State = capabilities.Failed
		p.Reason = fmt.Sprintf("the smoke test failed: %v", err)
	case string(out) != smokeWant:
		p.State = capabilities.Failed
		p.Reason = fmt.Sprintf("the smoke test formatted %q as %q, want %q", smokeIn, out, smokeWant)
	}
	p.Took = time.Since(start)
	return p
}

// Close waits for the running calls; gofumpt holds nothing else. It is
// idempotent.
func (d *Driver) Close() error { return d.calls.Close(nil) }

var _ capabilities.Driver = (*Driver)(nil)
