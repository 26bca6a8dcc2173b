package engine

// StepTest runs the tests the workspace's changes affect.
const StepTest StepName = "test"

// TestArgs are test's arguments: Paths (globs or paths) add the tests of
// the files they name to those the changes affect.
type TestArgs struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files, directories or globs (relative to the root) whose tests to run besides those the changes affect, read from disk first if needed; omit to run the tests the workspace's changes affect (with no change: every test of the root)"`
}

// Step is test.
func (*TestArgs) Step() StepName { return StepTest }
