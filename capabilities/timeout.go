package capabilities

import (
	"fmt"
	"strings"
	"time"

	"github.com/devbroker/devbroker/configs"
)

// RaiseTimeout tells how to give driver dn longer than its timeout t: the
// configuration key, a value twice t, and the files that set it.
func RaiseTimeout(dn string, t time.Duration) string {
	where := "the root's .devbroker.toml"
	if f := configs.UserFile(); f != "" {
		where += " or " + f
	}
	return fmt.Sprintf("to give it longer, set timeout = %q under [drivers.%s] in %s", ShortDuration(2*t), dn, where)
}

// ShortDuration writes d as a Go duration without the zero units a
// person would leave out: "2m", "1h30m", "90s", "1.5s".
func ShortDuration(d time.Duration) string {
	s := d.String()
	if d >= time.Minute {
		s = strings.TrimSuffix(s, "0s")
		if d >= time.Hour {
			s = strings.TrimSuffix(s, "0m")
		}
	}
	return s
}
