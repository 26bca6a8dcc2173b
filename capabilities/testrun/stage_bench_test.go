package testrun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// BenchmarkStage measures the private copy a pytest or vitest run makes
// of a project of 1,000 source files of 2 KiB in 50 directories, its
// node_modules linked (not copied), one file changed: what reusing a copy
// across runs could save, against the run itself (a pytest or vitest
// start-up alone takes several hundred milliseconds).
func BenchmarkStage(b *testing.B) {
	root := b.TempDir()
	body := strings.Repeat("x = 1  # padding padding padding padding padding\n", 40)
	for i := range 1000 {
		p := filepath.Join(root, fmt.Sprintf("pkg%02d", i%50), fmt.Sprintf("mod%04d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "node_modules", "big"), 0o755); err != nil {
		b.Fatal(err)
	}
	all := map[string]*text.Doc{"pkg00/mod0000.py": text.FromString("x = 2\n")}
	changed := []string{"pkg00/mod0000.py"}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dst := b.TempDir()
		b.StartTimer()
		if err := Stage(context.Background(), dst, root, all, changed, nil); err != nil {
			b.Fatal(err)
		}
	}
}
