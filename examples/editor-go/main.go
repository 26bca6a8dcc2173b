package main

// main prints what helper answers.
func main() {
	println("start")
	println(helper(1))
}
