// Package host describes the machine a benchmark runs on, for its
// results file.
package host

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes the host: CPU model, cores, memory, OS.
func Machine() string {
	model := ""
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if name, val, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
				model = strings.TrimSpace(val)
				break
			}
		}
	}
	memTotal := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				memTotal = fmt.Sprintf(", %.1f GiB RAM", float64(kb)/(1<<20))
			}
		}
	}
	if model == "" {
		model = runtime.GOARCH
	}
	return fmt.Sprintf("%s, %d cores%s, %s/%s, %s", model, runtime.NumCPU(), memTotal, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// Load is the load average over 1, 5 and 15 minutes (/proc/loadavg), or
// "unknown".
func Load() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
