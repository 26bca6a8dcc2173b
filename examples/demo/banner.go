package demo

// Banner is the first line the program prints.
func Banner() string {
	return Greet("world")
}
