module example.com/redeclared

go 1.22
