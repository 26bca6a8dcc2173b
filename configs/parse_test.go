package configs

// Parse decodes one file, named name in errors, as a whole configuration
// (no defaults under it), validates it and fills in the documented
// defaults.
func Parse(name string, data []byte) (*Config, error) {
	m, err := load(&source{name: name, data: data})
	if err != nil {
		return nil, err
	}
	return m.cfg, nil
}

// Load is LoadProject's configuration, every entry of the project file
// included whether trusted or not, or its first problem.
func Load(root string) (*Config, error) {
	p, err := LoadProject(root)
	if err != nil {
		return nil, err
	}
	if p.Invalid != nil {
		return nil, p.Invalid
	}
	return p.Config, nil
}
