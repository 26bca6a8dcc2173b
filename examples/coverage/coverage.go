// Package coverage is clean: the linters find nothing in it.
package coverage

// Answer is the answer.
const Answer = 42
