package broker

import (
	"testing"

	"github.com/devbroker/devbroker/configs/configtest"
)

// TestMain runs the tests with the test configuration layer: the real
// drivers they load (realLoader) never run under their default timeouts.
func TestMain(m *testing.M) { configtest.Main(m) }
