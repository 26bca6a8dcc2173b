package gitrev

import (
	"bytes"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
)

func TestParseTree(t *testing.T) {
	oid := strings.Repeat("ab", 20)
	out := "100644 blob " + oid + "      12\ta.go\x00" +
		"100755 blob " + oid + " 3\tbin/run.sh\x00" +
		"120000 blob " + oid + " 3\tlink\x00" +
		"160000 commit " + oid + "       -\tsub\x00" +
		"100644 blob " + oid + " 3\t../escape\x00" +
		"100644 blob nothex 3\tbad.go\x00" +
		"100644 blob " + oid + " -1\tneg.go\x00" +
		"100644 blob " + oid + "\tnosize.go\x00" +
		"100644 blob " + oid + " 0\tdir/with\ttab.go\x00"
	got := parseTree([]byte(out))
	want := map[string]entry{"a.go": {oid, 12}, "bin/run.sh": {oid, 3}, "dir/with\ttab.go": {oid, 0}}
	if !maps.Equal(got, want) {
		t.Errorf("parseTree = %v, want %v", got, want)
	}
}

func TestParseBatch(t *testing.T) {
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	out := fmt.Sprintf("%s blob 3\nx\ny\n%s blob 0\n\n", a, b)
	got, err := parseBatch([]byte(out), []string{a, b})
	if err != nil || string(got[a]) != "x\ny" || got[b] == nil || len(got[b]) != 0 {
		t.Fatalf("parseBatch = %q, %v", got, err)
	}
	for _, bad := range []string{
		a + " missing\n",
		a + " tree 3\nabc\n",
		a + " blob 9\nshort\n",
		a + " blob -1\n\n",
		b + " blob 1\nx\n", // another object than asked
		"",
	} {
		if _, err := parseBatch([]byte(bad), []string{a}); err == nil {
			t.Errorf("parseBatch(%q) succeeded", bad)
		}
	}
}

// FuzzParseTree: any output parses without panicking, into clean relative
// paths and object ids only.
func FuzzParseTree(f *testing.F) {
	f.Add([]byte("100644 blob " + strings.Repeat("0", 40) + "     9\ta.go\x00"))
	f.Add([]byte("100644 blob " + strings.Repeat("f", 64) + " 1\t/abs\x00\x00x\ty"))
	f.Fuzz(func(t *testing.T, out []byte) {
		for p, e := range parseTree(out) {
			if c, err := rootfs.Clean(p); err != nil || c != p || !isHex(e.oid) || e.size < 0 {
				t.Errorf("parseTree(%q) gave %q: %q", out, p, e.oid)
			}
		}
	})
}

// FuzzParseBatch: blobs written as cat-file writes them parse back to
// themselves, and any output parses without panicking.
func FuzzParseBatch(f *testing.F) {
	f.Add([]byte("abc"), []byte("\n\n"), []byte(strings.Repeat("a", 40)+" blob 1\n"))
	f.Fuzz(func(t *testing.T, x, y, raw []byte) {
		a, b := strings.Repeat("1", 40), strings.Repeat("2", 40)
		var out bytes.Buffer
		fmt.Fprintf(&out, "%s blob %d\n%s\n%s blob %d\n%s\n", a, len(x), x, b, len(y), y)
		got, err := parseBatch(out.Bytes(), []string{a, b})
		if err != nil || !bytes.Equal(got[a], x) || !bytes.Equal(got[b], y) {
			t.Errorf("round trip of %q, %q: %q, %v", x, y, got, err)
		}
		_, _ = parseBatch(raw, []string{a, b})
	})
}
