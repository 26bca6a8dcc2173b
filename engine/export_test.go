package engine

// NoBaseline makes e leave its lint and check answers uncompared with a
// baseline: the plain check the baseline's cost is measured against.
func NoBaseline(e *Engine) { e.noBaseline = true }
