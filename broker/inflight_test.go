package broker

import (
	"testing"
	"time"
)

// Wait returns true once every request taken is answered, and false when
// one is still open at the timeout.
func TestInFlight(t *testing.T) {
	var f InFlight
	if !f.Wait(0) {
		t.Fatal("Wait with nothing taken = false")
	}
	f.Add(1)
	f.Add(1)
	if f.Wait(time.Millisecond) {
		t.Fatal("Wait with two requests open = true")
	}
	done := make(chan bool)
	go func() { done <- f.Wait(time.Hour) }()
	f.Add(-1)
	f.Add(-1)
	if !<-done {
		t.Fatal("Wait after both answered = false")
	}
}
