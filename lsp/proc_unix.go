//go:build unix

package lsp

import (
	"os"
	"os/exec"
	"syscall"
)

// setGroup makes the server the leader of a new process group, so that
// killGroup reaches the children it starts too (gopls runs go list).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group that p leads.
func killGroup(p *os.Process) error {
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}
