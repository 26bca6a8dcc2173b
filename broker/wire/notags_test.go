package wire_test

import (
	"reflect"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
)

// TestResultTypesCarryNoJSONTags backs the package's invariant: the engine's
// and the capabilities' result types have no json tags, so nothing can
// encode them by accident; every surface sends this package's types.
func TestResultTypesCarryNoJSONTags(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, where string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			if tag, ok := f.Tag.Lookup("json"); ok {
				t.Errorf("%s.%s (in %s) has the json tag %q: result types are encoded only through broker/wire", ty, f.Name, where, tag)
			}
			walk(f.Type, where)
		}
	}
	for _, ty := range []reflect.Type{
		reflect.TypeFor[engine.Result](),
		reflect.TypeFor[editfile.Result](),
		reflect.TypeFor[capabilities.Report](),
	} {
		walk(ty, ty.String())
	}
}
