// Package gomod reads go.mod and go.work files for every part of devbroker
// that needs what they say, with golang.org/x/mod/modfile, the go
// command's own parser: the go command's inputs outside the root that lsp
// checks (local replace and use directories), staticcheck's stage (which
// rewrites relative replacements), gofumpt's options (the go version and
// module path) and a trusted root's tool directives. It reads only the
// file it is given: where that file is (the root's module context, the
// go command's GOMOD) is its caller's to say.
package gomod

import (
	"fmt"
	"os"

	"golang.org/x/mod/modfile"
)

// MaxSize is the largest go.mod or go.work read. The go command has no
// such limit; a file past it is no module file a project writes.
const MaxSize = 1 << 20

// Read reads and parses the go.mod at p.
func Read(p string) (*modfile.File, error) {
	data, err := read(p)
	if err != nil {
		return nil, err
	}
	return Parse(p, data)
}

// Parse parses data, a go.mod's content; name names it in errors.
func Parse(name string, data []byte) (*modfile.File, error) {
	return modfile.Parse(name, data, nil)
}

// ReadWork reads and parses the go.work at p.
func ReadWork(p string) (*modfile.WorkFile, error) {
	data, err := read(p)
	if err != nil {
		return nil, err
	}
	return modfile.ParseWork(p, data, nil)
}

func read(p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, MaxSize)
	}
	return os.ReadFile(p)
}

// LocalReplaces are the replacements of rs by a directory (no version, a
// directory path: "./fork", "../x", "/abs"), which the go command reads
// as source.
func LocalReplaces(rs []*modfile.Replace) []*modfile.Replace {
	var out []*modfile.Replace
	for _, r := range rs {
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
			out = append(out, r)
		}
	}
	return out
}
