package unused

func f() int {
	x := 1
	// x is never used, and undefinedName never declared.
	return undefinedName
}
