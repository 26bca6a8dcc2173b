package main

func main() {
	println("hi")
}

// oldName is who is greeted; set oldName to greet someone else.
var oldName = "world"
