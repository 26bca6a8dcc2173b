package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// generateTS returns about size bytes of TypeScript with strings, template
// literals, regular expressions and comments that hide delimiters.
func generateTS(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `// Item%[1]d holds "}" and '{'.
export class Item%[1]d {
	name = "}";
	/* a } comment */
	method%[1]d(x: Map<string, number>): string {
		const t = `+"`a ${x.get(\"{\")} b ${ `nested ${'}'}` }`"+`;
		if (/[{(]/.test(t)) { return t.replace(/}/g, "") }
		return t + (x.size / 2);
	}
}

`, i)
	}
	return b.String()
}

func BenchmarkDelimiters1MB(b *testing.B) {
	src := []byte(generateTS(1 << 20))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := Check("gen.ts", src); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
