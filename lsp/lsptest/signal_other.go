//go:build !unix

package lsptest

// loadEnd never ends where there is no SIGUSR1.
func loadEnd() <-chan struct{} { return nil }
