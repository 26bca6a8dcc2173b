# The project's two entry points (see README.md):
#   make demo   runs devbroker on the example plan (embedded defaults, no config file):
#               an edit that breaks a caller is stopped before its write
#   make test   installs what the tests need, then runs every test
.PHONY: demo test tools lint

# The headline: an in-memory edit of Greet's signature breaks its caller;
# lint finds it, and the plan stops before its write (exit 1), so the
# example on disk is unchanged. The target fails if the plan does not stop.
demo:
	@bin="$$(mktemp -d)/devbroker" && go build -o "$$bin" ./cmd/devbroker && \
	"$$bin" run --root examples/demo examples/demo/break.json; status=$$?; rm -rf "$$(dirname "$$bin")"; \
	if [ $$status -ne 1 ]; then echo "make demo: the plan should have stopped at lint (exit 1); it exited $$status" >&2; exit 1; fi; \
	echo "make demo: the plan stopped before its write (exit 1); greet.go on disk is unchanged:"; \
	grep -n 'func Greet' examples/demo/greet.go

tools:
	bash .ci/install-tools

# gopls is installed into $(go env GOPATH)/bin, which may not be on PATH.
test: tools
	PATH="$$(go env GOPATH)/bin:$$PATH" go test -count=1 -timeout 30m ./...

# deadcode (golang.org/x/tools/cmd/deadcode, its version from the module
# proxy) lists the functions the command cannot reach: none may be left in
# the product but two constructors the tests build with (capabilities.NewSet,
# configs.Default). What only tests use goes into a _test.go file.
lint:
	gofmt -l . | (! grep .)
	go vet ./...
	go tool staticcheck ./...
	@out="$$(go run golang.org/x/tools/cmd/deadcode@v0.53.0 ./cmd/devbroker)" || exit 1; \
	dead="$$(printf '%s\n' "$$out" | grep -v -e '^$$' -e '^capabilities/set.go:[0-9:]*: unreachable func: NewSet$$' -e '^configs/load.go:[0-9:]*: unreachable func: Default$$')"; \
	if [ -n "$$dead" ]; then echo "$$dead"; echo "make lint: unreachable code: remove it, or move what only tests use into a _test.go file" >&2; exit 1; fi
