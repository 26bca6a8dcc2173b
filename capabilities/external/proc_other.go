//go:build !unix

package external

import "os"

// signalOf is "" where processes do not die by signals.
func signalOf(*os.ProcessState) string { return "" }
