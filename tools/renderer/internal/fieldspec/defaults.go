package fieldspec

// defaultConfig (defaults_gen.go) is defaults.yaml as a Go value, which the linker lays out in
// the binary: every krm process needed the defaults, and decoding them (from YAML, later from
// JSON) was a tenth of the start-up of a render. defaults_test.go checks it, and rewrites it
// with -update-defaults.

// Defaults returns a fresh copy of kustomize's default field specs.
func Defaults() *Config {
	return defaultConfig.DeepCopy()
}
