package syntax

// This file defines the Go check: go/parser with all errors.

import (
	"errors"
	"go/parser"
	"go/scanner"
	"go/token"
)

// checkGo parses src as a Go file. It reports every error the parser finds,
// at most one per line (later ones on a line are usually consequences).
func checkGo(src []byte) []Error {
	fset := token.NewFileSet()
	_, err := parser.ParseFile(fset, "", src, parser.AllErrors|parser.SkipObjectResolution)
	if err == nil {
		return nil
	}
	p := &positions{src: src}
	var list scanner.ErrorList
	if !errors.As(err, &list) {
		return []Error{p.errorAt(0, err.Error())}
	}
	list.RemoveMultiples()
	errs := make([]Error, 0, len(list))
	for _, e := range list {
		errs = append(errs, p.errorAt(e.Pos.Offset, e.Msg))
	}
	return errs
}
