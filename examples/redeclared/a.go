package redeclared

func F() {}
