package configs

// This file defines [Slot], one entry of a language's format, lint or
// check list, and its parser.

import (
	"fmt"
	"slices"
	"strings"
)

// Slot is one entry of a language's format, lint or check list: the
// alternatives that can serve it, in order. Each alternative is one or
// more driver names that run together. "staticcheck" is one alternative
// of one driver; "gopls | go-build + go-vet" is gopls, or else go-build
// and go-vet together.
type Slot [][]string

// Slot syntax: alternatives are separated by "|", the drivers of one
// alternative are joined by "+", and spaces around either are ignored.
const (
	altSep    = "|"
	driverSep = "+"
)

// ParseSlot parses one list entry. An entry without "|" or "+" is one
// driver name (spaces around it ignored). Every name must be non-empty,
// and no driver may appear twice in an entry.
func ParseSlot(entry string) (Slot, error) {
	if strings.TrimSpace(entry) == "" {
		return nil, fmt.Errorf("the entry is empty; write a driver name, or alternatives like \"gopls | go-build + go-vet\"")
	}
	var slot Slot
	seen := map[string]bool{}
	for i, alt := range strings.Split(entry, altSep) {
		if strings.TrimSpace(alt) == "" {
			return nil, fmt.Errorf("%q: alternative %d is empty; separate alternatives with \"|\", like \"gopls | go-build + go-vet\" (a driver name cannot contain \"|\" or \"+\")", entry, i+1)
		}
		var names []string
		for _, n := range strings.Split(alt, driverSep) {
			n = strings.TrimSpace(n)
			switch {
			case n == "":
				return nil, fmt.Errorf("%q: a driver name is missing around %q; join drivers that run together with \"+\", like \"go-build + go-vet\" (a driver name cannot contain \"|\" or \"+\")", entry, driverSep)
			case seen[n]:
				return nil, fmt.Errorf("%q: driver %q appears twice; name each driver once per entry", entry, n)
			}
			seen[n] = true
			names = append(names, n)
		}
		slot = append(slot, names)
	}
	return slot, nil
}

// Drivers lists every driver the slot names, in order.
func (s Slot) Drivers() []string {
	return slices.Concat(s...)
}

// String writes the slot in the configuration's syntax.
func (s Slot) String() string {
	alts := make([]string, len(s))
	for i, a := range s {
		alts[i] = strings.Join(a, " "+driverSep+" ")
	}
	return strings.Join(alts, " "+altSep+" ")
}
