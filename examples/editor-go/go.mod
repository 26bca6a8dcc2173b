module example.com/editor

go 1.22
