package main

import (
	"fmt"
	"io"

	"github.com/devbroker/devbroker/capabilities"
)

// announce says once, on stderr, what of the root's configuration does not
// apply and why: a project file (or configuration files of the user's tools
// inside the root) ignored until the root is trusted, with how to trust
// it, and the configuration's warnings. A command that runs on defaults
// while the project's own file says otherwise must not do so silently.
func announce(stderr io.Writer, cmd string, set *capabilities.Set) {
	p := set.Report().Project
	if s := p.Summary(); s != "" {
		fmt.Fprintf(stderr, "devbroker %s: %s\n", cmd, s)
	}
}
