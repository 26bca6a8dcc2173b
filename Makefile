# The project's two entry points (see README.md):
#   make demo   runs devbroker on the example plan (embedded defaults, no config file)
#   make test   installs what the tests need, then runs every test
.PHONY: demo test tools lint

demo:
	go run ./cmd/devbroker run --root examples/hello examples/hello/plan.json

tools:
	bash .ci/install-tools

# gopls is installed into $(go env GOPATH)/bin, which may not be on PATH.
test: tools
	PATH="$$(go env GOPATH)/bin:$$PATH" go test -count=1 -timeout 30m ./...

lint:
	gofmt -l . | (! grep .)
	go vet ./...
	go tool staticcheck ./...
