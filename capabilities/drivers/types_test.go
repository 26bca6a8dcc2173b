package drivers

import (
	"slices"
	"testing"

	"github.com/devbroker/devbroker/configs"
)

// TestTypesMatchTheConfiguration: a configuration may name exactly the
// driver types that are registered (implemented), so a type without an
// implementation is refused when the configuration is read, and an
// implemented type is never refused.
func TestTypesMatchTheConfiguration(t *testing.T) {
	var registered []string
	for _, typ := range Types {
		registered = append(registered, typ.Name)
	}
	slices.Sort(registered)
	allowed := slices.Clone(configs.DriverTypes)
	slices.Sort(allowed)
	if !slices.Equal(registered, allowed) {
		t.Errorf("registered driver types %v, but a configuration may name %v: register an implementation for each type configs accepts, and no other", registered, allowed)
	}
}
