package lspdriver

import "testing"

// Only the kinds that change code are listed, unless only asks for more.
func TestEditKind(t *testing.T) {
	for _, c := range []struct {
		kind string
		only []string
		want bool
	}{
		{"quickfix", nil, true},
		{"refactor.extract.function", nil, true},
		{"source.organizeImports", nil, true},
		{"", nil, true},
		{"source.doc", nil, false},
		{"source.toggleCompilerOptDetails", nil, false},
		{"gopls.doc.features", nil, false},
		{"refactorx", nil, false},
		{"source.addTest", []string{"source.addTest"}, true},
		{"quickfix", []string{"refactor"}, false},
		{"refactor.inline.call", []string{"refactor.inline"}, true},
	} {
		if got := editKind(c.kind, c.only); got != c.want {
			t.Errorf("editKind(%q, %q) = %v, want %v", c.kind, c.only, got, c.want)
		}
	}
}
