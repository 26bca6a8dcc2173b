//go:build !unix

package external

import (
	"os"
	"os/exec"
)

// setGroup does nothing where there are no process groups.
func setGroup(*exec.Cmd) {}

// killGroup kills p alone where there are no process groups.
func killGroup(p *os.Process) error { return p.Kill() }

// signalOf is "" where processes do not die by signals.
func signalOf(*os.ProcessState) string { return "" }
