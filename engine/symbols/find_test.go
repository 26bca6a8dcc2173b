package symbols

// The tests' views of the declarations: every match (Lookup wants one).

// Find returns the declarations of name in src (file content with "\n"
// line ends), for the language chosen by filename's extension. name may be
// qualified (see [Symbol.Qualified]). kind, when not "", narrows by kind or
// keyword ("function", "func", "type", "class", "method"); when nothing
// matches exactly, it narrows by family: "function" also admits methods,
// "type" every type-like kind, "var" constants and fields.
//
// Find fails when the language is not supported or when the extent of a
// matching declaration cannot be found (a body that never closes).
func Find(filename, src, name, kind string) ([]Symbol, error) {
	m, err := find(filename, src, name, kind)
	if err != nil {
		return nil, err
	}
	return m.symbols(true)
}

// Supported reports whether Find understands the language of filename,
// which is chosen by its extension.
func Supported(filename string) bool {
	return languageFor(filename) != nil
}
