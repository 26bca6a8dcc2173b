//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

// Set makes cmd, once started, the leader of a new process group, so that
// [Kill] reaches its children too.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Kill kills the process group that p leads.
func Kill(p *os.Process) error {
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}
