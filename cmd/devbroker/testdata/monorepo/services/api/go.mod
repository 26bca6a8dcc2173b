module example.com/monorepo/services/api

go 1.22
