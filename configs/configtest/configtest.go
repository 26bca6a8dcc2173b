// Package configtest is for tests only: a user configuration layer that
// gives every driver of the embedded defaults a generous timeout, so that
// no test depends on a driver finishing within its product default on a
// busy machine with cold caches (a first staticcheck run, a gopls loading
// its module, go vet building its export data).
//
// Tests point XDG_CONFIG_HOME at a directory holding the layer ([Main],
// [Setenv]) or write it where a test's own user configuration already is
// ([Install]): it is the user's configuration file
// (configs.UserFile), merged over the defaults key by key, so a timeout a
// project's .devbroker.toml sets (a test of timeouts) still wins. The
// product's defaults do not change.
package configtest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/devbroker/devbroker/configs"
)

// Timeout is the timeout the layer gives every default driver.
const Timeout = 10 * time.Minute

// Layer is the layer's TOML: a [drivers.NAME] table with timeout =
// Timeout for each driver the embedded defaults define, but those in skip.
func Layer(skip ...string) string {
	def, err := configs.Default()
	if err != nil {
		panic(fmt.Sprintf("configtest: the embedded defaults do not load: %v", err))
	}
	var names []string
	for name := range def.Drivers {
		if !slices.Contains(skip, name) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("\n# Tests only (configs/configtest): a generous timeout for every default\n# driver, so that no test depends on a driver's default timeout.\n")
	for _, name := range names {
		fmt.Fprintf(&b, "[drivers.%s]\ntimeout = %q\n", name, Timeout.String())
	}
	return b.String()
}

// Install adds the layer to dir/devbroker/config.toml, the user file when
// XDG_CONFIG_HOME is dir: it creates the file, or adds to the one there
// the tables of the drivers it does not have, and a timeout to those of
// its [drivers.NAME] tables that set none. A file that does not build on
// the defaults (inherit_defaults = false) or is not valid TOML (a test of
// configuration errors) is left as it is.
func Install(dir string) error {
	file := filepath.Join(dir, "devbroker", "config.toml")
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	var head struct {
		InheritDefaults *bool                     `toml:"inherit_defaults"`
		Drivers         map[string]map[string]any `toml:"drivers"`
	}
	if err := toml.Unmarshal(old, &head); err != nil || (head.InheritDefaults != nil && !*head.InheritDefaults) {
		return nil
	}
	text := string(old)
	var skip []string
	for name, table := range head.Drivers {
		skip = append(skip, name)
		if _, ok := table["timeout"]; ok {
			continue
		}
		header := regexp.MustCompile(`(?m)^[ \t]*\[[ \t]*drivers[ \t]*\.[ \t]*` + regexp.QuoteMeta(name) + `[ \t]*\][^\n]*\n`)
		if loc := header.FindStringIndex(text); loc != nil {
			text = text[:loc[1]] + fmt.Sprintf("timeout = %q # tests only (configs/configtest)\n", Timeout.String()) + text[loc[1]:]
		}
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, []byte(text+Layer(skip...)), 0o644)
}

// Main runs a test binary's tests with XDG_CONFIG_HOME pointing at a new
// directory that holds the layer, and exits with their status: call it
// from TestMain.
func Main(m interface{ Run() int }) {
	os.Exit(Run(m))
}

// Run is [Main] that returns the status, for a TestMain that wraps it.
func Run(m interface{ Run() int }) int {
	dir, err := os.MkdirTemp("", "devbroker-configtest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "configtest:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	if err := Install(dir); err != nil {
		fmt.Fprintln(os.Stderr, "configtest:", err)
		return 2
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	return m.Run()
}

// Dir is a new directory holding the layer, to point a child process's
// XDG_CONFIG_HOME at.
func Dir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := Install(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Setenv points XDG_CONFIG_HOME at a new directory that holds the layer,
// for the rest of the test, and returns the directory.
func Setenv(t testing.TB) string {
	t.Helper()
	dir := Dir(t)
	t.Setenv("XDG_CONFIG_HOME", dir)
	return dir
}

// Default is configs.Default with every driver's timeout Timeout: for
// tests that build drivers from the embedded defaults themselves.
func Default() (*configs.Config, error) {
	cfg, err := configs.Default()
	if err != nil {
		return nil, err
	}
	for name, d := range cfg.Drivers {
		cfg.Drivers[name] = Driver(d)
	}
	return cfg, nil
}

// Driver is a copy of d whose timeout is Timeout: for tests that build a
// driver from a configuration of their own and test no timeout.
func Driver(d *configs.Driver) *configs.Driver {
	c := *d
	c.Timeout = configs.Duration{Duration: Timeout}
	return &c
}
