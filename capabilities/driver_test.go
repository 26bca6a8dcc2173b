package capabilities_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// TestDriverRequestMirrorsEngine keeps engine.Request the one home of a
// request's fields: a driver's request has each of them, of the same
// type, but those only the set acts on, and adds only its routed files
// and the view they are read in.
func TestDriverRequestMirrorsEngine(t *testing.T) {
	setOnly := []string{"Files", "Paths", "Swept", "Uncapped"} // engine.Request's Files is the driver's All
	driverOnly := []string{"Files", "All"}
	et, dt := reflect.TypeFor[engine.Request](), reflect.TypeFor[capabilities.Request]()
	for f := range et.Fields() {
		if slices.Contains(setOnly, f.Name) {
			continue
		}
		if df, ok := dt.FieldByName(f.Name); !ok || df.Type != f.Type {
			t.Errorf("capabilities.Request lacks engine.Request's %s %s", f.Name, f.Type)
		}
	}
	for f := range dt.Fields() {
		if slices.Contains(driverOnly, f.Name) {
			continue
		}
		if _, ok := et.FieldByName(f.Name); !ok {
			t.Errorf("capabilities.Request's %s is not engine.Request's: give it its meaning there", f.Name)
		}
	}
	all, _ := dt.FieldByName("All")
	if files, _ := et.FieldByName("Files"); all.Type != files.Type {
		t.Errorf("capabilities.Request.All is %s, engine.Request.Files %s", all.Type, files.Type)
	}
}
