package editor_test

import (
	"testing"

	"github.com/devbroker/devbroker/configs/configtest"
)

// TestMain runs the tests with the test configuration layer: the real
// drivers they load (realDrivers, the server Neovim starts) never run
// under their default timeouts.
func TestMain(m *testing.M) { configtest.Main(m) }
