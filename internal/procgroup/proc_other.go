//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

// Set does nothing where there are no process groups.
func Set(*exec.Cmd) {}

// Kill kills p alone where there are no process groups.
func Kill(p *os.Process) error { return p.Kill() }
