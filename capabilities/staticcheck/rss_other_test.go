//go:build !unix

package staticcheck

import "os"

// maxRSS is 0 where the platform does not report a process's peak
// resident memory.
func maxRSS(*os.ProcessState) int64 { return 0 }
