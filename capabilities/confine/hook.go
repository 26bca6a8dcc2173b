package confine

// This file defines how this package's executable becomes the wrapper:
// the links cc and c++ that Env writes, and the go command's -toolexec,
// run it with EnvVar set; init then runs the wrapper instead of the
// program, and exits with its code.

import (
	"fmt"
	"os"
	"path/filepath"
)

func init() {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		return
	}
	if len(os.Args) > 1 && os.Args[1] == ToolexecArg {
		os.Exit(toolexec(dir, os.Args[2:]))
	}
	switch filepath.Base(os.Args[0]) {
	case "cc":
		os.Exit(compile(dir, false, os.Args[1:]))
	case "c++":
		os.Exit(compile(dir, true, os.Args[1:]))
	}
}

// wrapperFailed reports a failure of the wrapper itself (not of the
// compiler): the tool's run fails with it.
func wrapperFailed(err error) int {
	fmt.Fprintf(os.Stderr, "devbroker's confinement of the C toolchain to the root failed: %v\n", err)
	return 2
}
