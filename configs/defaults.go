package configs

// fillDefaults writes the documented default of every key left unset, so
// that consumers never interpret zero values themselves.
func fillDefaults(c *Config) {
	if c.Limits.MaxDiagnostics == 0 {
		c.Limits.MaxDiagnostics = DefaultMaxDiagnostics
	}
	for _, d := range c.Drivers {
		if d.Timeout.Duration == 0 {
			d.Timeout.Duration = DefaultTimeout
		}
		if d.Type == "junit" {
			d.RunsRepositoryCode = true // it runs the repository's tests
		}
		if d.Type != "external" {
			continue
		}
		setDefault(&d.Input, "stdin")
		setDefault(&d.Stream, "stdout")
		setDefault(&d.Severity, "warning")
		if d.ExitCodes.OK == nil {
			d.ExitCodes.OK = []int{0}
		}
		if d.ExitCodes.Findings == nil {
			d.ExitCodes.Findings = []int{1}
		}
		if d.JSON != nil {
			setDefault(&d.JSON.ColumnUnit, "chars")
		}
	}
}

func setDefault(s *string, v string) {
	if *s == "" {
		*s = v
	}
}
