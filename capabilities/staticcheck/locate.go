package staticcheck

import (
	"context"
	"os"
	"os/exec"
)

// Locate names the files the probe's result depends on (see
// capabilities.Locator): devbroker's own executable, into which
// staticcheck is linked, and the go command its loader runs.
func (d *Driver) Locate(context.Context) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	return []string{self, goBin}, nil
}
