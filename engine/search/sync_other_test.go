//go:build !unix

package search

// settle does nothing where there is no sync(2).
func settle() {}
