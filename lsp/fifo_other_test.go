//go:build !unix

package lsp

import "errors"

func mkfifo(string) error { return errors.New("no named pipes here") }
