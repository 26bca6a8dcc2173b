//go:build !linux && !darwin

package lspdriver_test

// platformScenarios: none beyond the common ones here.
var platformScenarios []freshScenario
