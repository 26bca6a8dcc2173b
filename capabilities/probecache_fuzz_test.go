package capabilities

import (
	"encoding/json"
	"testing"
)

// FuzzParseProbeCache: any content parses or fails without panicking, and
// what parses keeps only entries with a key and files, which write back
// and parse to the same entries.
func FuzzParseProbeCache(f *testing.F) {
	f.Add([]byte(`{"version":1,"entries":[{"key":"gopls/go/ab","files":[{"path":"/bin/gopls","size":1,"mtime_ns":2}],"version":"v0.1","path":"/bin/gopls","saved_unix":3}]}`))
	f.Add([]byte(`{"version":1,"entries":[{"key":"","files":[]}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`{"version":1,"entries":[{"key":`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := parseProbeCache(data)
		if err != nil {
			return
		}
		cf := cacheFile{Version: cacheFormat}
		for k, e := range m {
			if k != e.Key || e.Key == "" || len(e.Files) == 0 {
				t.Fatalf("entry %q kept: %+v", k, e)
			}
			cf.Entries = append(cf.Entries, e)
		}
		out, err := json.Marshal(cf)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseProbeCache(out)
		if err != nil || len(again) != len(m) {
			t.Fatalf("round trip: %v, %d entries, want %d", err, len(again), len(m))
		}
	})
}
