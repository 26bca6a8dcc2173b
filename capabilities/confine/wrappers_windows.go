//go:build windows

package confine

// Coverage is what the confinement leaves unchecked in a root the user
// has not trusted: on Windows, where no compiler wrapper is written, cgo
// is off there.
const Coverage = `cgo is off in this root, which you have not trusted (its C compiler could read files outside the root): Go files that import "C" are left out of the build and not checked; devbroker trust lifts this`

// writeWrappers writes nothing: cgo is off.
func writeWrappers(string, string) error { return nil }

// compilerEnv turns cgo off, and points the temporary directory of the
// tools at tmp.
func compilerEnv(_, tmp string) ([]string, error) {
	return []string{"CGO_ENABLED=0", "TMP=" + tmp, "TEMP=" + tmp}, nil
}
