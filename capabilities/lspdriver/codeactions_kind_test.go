package lspdriver

import "testing"

// Only the kinds that change code are listed; only narrows them, and
// cannot ask for the others (gopls runs their commands on the server that
// every session of the root shares: a toggle, a documentation server).
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
		{"source.addTest", []string{"source.addTest"}, false},
		{"source.toggleCompilerOptDetails", []string{"source"}, false},
		{"source.doc", []string{"source.doc"}, false},
		{"source.organizeImports", []string{"source"}, true},
		{"", []string{"quickfix"}, false},
		{"quickfix", []string{"refactor"}, false},
		{"refactor.inline.call", []string{"refactor.inline"}, true},
	} {
		if got := editKind(c.kind, c.only); got != c.want {
			t.Errorf("editKind(%q, %q) = %v, want %v", c.kind, c.only, got, c.want)
		}
	}
}
