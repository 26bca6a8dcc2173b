//go:build unix

package lsptest

import (
	"os"
	"os/signal"
	"syscall"
)

// loadEnd is closed when the process gets SIGUSR1.
func loadEnd() <-chan struct{} {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() { <-sig; close(done) }()
	return done
}

// loadReport receives one value each time the process gets SIGUSR2.
func loadReport() <-chan struct{} {
	sig := make(chan os.Signal, 16)
	signal.Notify(sig, syscall.SIGUSR2)
	out := make(chan struct{})
	go func() {
		for range sig {
			out <- struct{}{}
		}
	}()
	return out
}
