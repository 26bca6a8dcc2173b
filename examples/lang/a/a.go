package a

// Add returns the sum of x and y.
func Add(x, y int) int {
	return x + y
}

// Calc keeps a running total.
type Calc struct{ total int }

// Reset sets the total to zero.
func (c *Calc) Reset() { c.total = 0 }

// Meter counts.
type Meter struct{ n int }

// Reset sets the count to zero.
func (m *Meter) Reset() { m.n = 0 }
