package main

import (
	"strings"
	"testing"
)

// A run without -corpus keeps the corpus part of the section, marked
// once, however often it is kept.
func TestKeptCorpus(t *testing.T) {
	doc := "intro\n<!-- startbench -->\n## Start-up\n\ntable\n" + corpusHeading[1:] + " (`-corpus 8`)\n\nabout\n\n| rows |\n<!-- /startbench -->\nafter\n"
	kept := keptCorpus(doc)
	if !strings.HasPrefix(kept, corpusHeading+" (`-corpus 8`)\n\n"+keptNote+"\n\nabout\n\n| rows |\n") {
		t.Fatalf("kept:\n%q", kept)
	}
	again := keptCorpus("<!-- startbench -->\nx\n" + kept + "<!-- /startbench -->\n")
	if again != kept {
		t.Fatalf("kept twice:\n%q\nwant\n%q", again, kept)
	}
	if keptCorpus("<!-- startbench -->\nno corpus\n<!-- /startbench -->\n") != "" {
		t.Fatal("a section without the corpus kept something")
	}
}
