// Command gendoc writes the configuration reference, docs/config.md, from
// the configs package's doc comments. Run it with go generate ./configs.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/devbroker/devbroker/configs/internal/configdoc"
)

func main() {
	out := flag.String("o", "../docs/config.md", "the file to write")
	dir := flag.String("dir", ".", "the configs package directory")
	flag.Parse()
	if err := configdoc.Write(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gendoc:", err)
		os.Exit(1)
	}
}
