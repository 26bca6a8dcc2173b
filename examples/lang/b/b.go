package b

import "example.com/m/a"

// Sum adds three numbers.
func Sum(x, y, z int) int {
	return a.Add(a.Add(x, y), z)
}
