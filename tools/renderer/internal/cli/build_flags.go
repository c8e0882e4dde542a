package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/render"
)

// kustomizeBuildFlags are the flags of `kustomize build` (v5.8.2) that krm
// build takes with kustomize's meaning, or accepts and ignores where they
// cannot apply (container functions, which krm refuses).
type kustomizeBuildFlags struct {
	alphaPlugins, exec, managedBy bool
	env                           []string
	reorder                       setString
	// ignored are accepted for compatibility and not used.
	ignored struct {
		network, asCurrentUser, stackTrace bool
		networkName                        string
		mount                              []string
	}
}

// setString is a string flag that knows whether it was given: kustomize's
// --reorder applies only then.
type setString struct {
	value string
	set   bool
}

func (s *setString) String() string     { return s.value }
func (s *setString) Set(v string) error { s.value, s.set = v, true; return nil }
func (s *setString) Type() string       { return "string" }

// managedByEnv turns --enable-managedby-label on, as in kustomize.
const managedByEnv = "KUSTOMIZE_ENABLE_MANAGEDBY_LABEL"

func (k *kustomizeBuildFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&k.alphaPlugins, "enable-alpha-plugins", false,
		"allow function plugins (Starlark, exec); without it a function config is an error, as in kustomize")
	fs.BoolVar(&k.exec, "enable-exec", false,
		"run exec functions (raw executables): do not use for untrusted configs; with --enable-alpha-plugins but without this flag an exec function does nothing, as in kustomize")
	fs.StringArrayVarP(&k.env, "env", "e", nil, "KEY=VALUE added to the environment of exec functions (repeatable)")
	ignored := " (accepted for kustomize compatibility; applies to container functions, which krm refuses)"
	fs.BoolVar(&k.ignored.network, "network", false, "enable network access for functions that declare it"+ignored)
	fs.StringVar(&k.ignored.networkName, "network-name", "bridge", "the docker network to run the container in"+ignored)
	fs.StringArrayVar(&k.ignored.mount, "mount", nil, "a list of storage options read from the filesystem"+ignored)
	fs.BoolVar(&k.ignored.asCurrentUser, "as-current-user", false, "use the uid and gid of the command executor to run the function in the container"+ignored)
	fs.BoolVar(&k.ignored.stackTrace, "stack-trace", false, "print a stack-trace on error (accepted for kustomize compatibility; krm prints the error only)")
	k.reorder.value = "legacy"
	fs.Var(&k.reorder, "reorder",
		"deprecated: 'legacy' sorts the output (the default), 'none' keeps the input order; sortOptions in the kustomization wins")
	_ = fs.MarkDeprecated("reorder", "use the new 'sortOptions' field in kustomization.yaml instead.")
	fs.BoolVar(&k.managedBy, "enable-managedby-label", false, "deprecated: label every object app.kubernetes.io/managed-by (also with "+managedByEnv+"=on)")
	_ = fs.MarkDeprecated("enable-managedby-label",
		"The flag `enable-managedby-label` has been deprecated. Use the `managedByLabel` option in the `buildMetadata` field instead.")
}

// apply validates the flags as kustomize does and sets them in opts.
func (k *kustomizeBuildFlags) apply(opts *render.Options, stderr io.Writer) error {
	switch k.reorder.value {
	case "legacy", emit.ReorderNone:
	default:
		return fmt.Errorf("illegal flag value --reorder %s; legal values: [legacy none]", k.reorder.value)
	}
	if k.reorder.set {
		opts.Reorder = k.reorder.value
	}
	opts.Functions = render.Functions{Alpha: k.alphaPlugins, Exec: k.exec, Env: k.env}
	v, set := os.LookupEnv(managedByEnv)
	opts.ManagedByLabel = k.managedBy || (set && v == "on")
	if k.exec && !k.alphaPlugins {
		fmt.Fprintln(stderr, "Warning: --enable-exec has no effect without --enable-alpha-plugins (as in kustomize)")
	}
	return nil
}

// isDir reports whether -o names an existing directory (kustomize then writes one file per object).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
