module example.com/unused

go 1.22
