package engine

// StepTest runs the tests the workspace's changes affect.
const StepTest StepName = "test"

// TestArgs are test's arguments: Paths (globs or paths) add the tests of
// the files they name to those the changes affect.
type TestArgs struct {
	Paths []string `json:"paths,omitempty"`
}

// Step is test.
func (*TestArgs) Step() StepName { return StepTest }
