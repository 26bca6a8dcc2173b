//go:build !unix

package lsptest

// loadEnd never ends where there is no SIGUSR1.
func loadEnd() <-chan struct{} { return nil }

// loadReport never reports where there is no SIGUSR2.
func loadReport() <-chan struct{} { return nil }
