package main

import "os"

// pinGoToolchain makes every go command devbroker starts (go vet, go
// build, gopls's and staticcheck's go list, `go tool -n gopls`) use the Go
// installed here. By default the go command obeys a repository's go.mod
// (`go 1.N` and `toolchain goX` lines) and downloads and runs the toolchain
// it names, which would let an untrusted repository choose a program for
// devbroker to run. A trusted project can still ask for another toolchain
// through a driver's env (`env = ["GOTOOLCHAIN=auto"]`), which comes after
// this in the driver's environment.
func pinGoToolchain() {
	os.Setenv("GOTOOLCHAIN", "local")
}
