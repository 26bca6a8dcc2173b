package broker

// This file defines what a devbroker binary knows of its own build: the
// module version and the commit, one answer for every surface (the CLI's
// --version, MCP's serverInfo, the editor endpoint's serverInfo).

import (
	"fmt"
	"runtime/debug"
)

// Stamped is a version the build sets, for builds that carry neither a
// module version nor VCS information (-buildvcs=false, a source archive):
//
//	go build -ldflags "-X github.com/devbroker/devbroker/broker.Stamped=v1.2.3" ./cmd/devbroker
var Stamped string

// Build is what the binary knows of its build.
type Build struct {
	// Version is the module version: Stamped when set, else the build
	// info's (a release from the module proxy, or the pseudo-version go
	// build derives from the checkout's commit), else "devel".
	Version string
	// Commit is the VCS revision the binary was built from, when known;
	// Modified that the work tree had uncommitted changes.
	Commit   string
	Modified bool
	// Go is the Go version that built it.
	Go string
}

// ReadBuild reads the running binary's build information.
func ReadBuild() Build {
	b := Build{Version: Stamped}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		b.Go = bi.GoVersion
		if v := bi.Main.Version; b.Version == "" && v != "" && v != "(devel)" {
			b.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// Version is the binary's module version (see [Build.Version]).
func Version() string { return ReadBuild().Version }

// String is the version with what else is known: "v1.2.3 (commit
// 0123456789ab, modified)", or for a build that knows neither, "devel" with
// how to stamp one.
func (b Build) String() string {
	switch {
	case b.Commit != "":
		mod := ""
		if b.Modified {
			mod = ", modified"
		}
		return fmt.Sprintf("%s (commit %.12s%s)", b.Version, b.Commit, mod)
	case b.Version == "devel":
		return "devel (this build carries no version and no commit: build it from a git checkout, or stamp one with -ldflags \"-X github.com/devbroker/devbroker/broker.Stamped=VERSION\")"
	}
	return b.Version
}
