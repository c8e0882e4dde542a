package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/build"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/emit"
)

// kustomizeBuildFlags are the flags of `kustomize build` (v5.8.2) that krm
// build takes with kustomize's meaning, or accepts and ignores where they
// cannot apply (container functions, which krm refuses).
type kustomizeBuildFlags struct {
	alphaPlugins, exec, managedBy bool
	env                           []string
	reorder                       string
}

// managedByEnv turns --enable-managedby-label on, as in kustomize.
const managedByEnv = "KUSTOMIZE_ENABLE_MANAGEDBY_LABEL"

func (k *kustomizeBuildFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&k.alphaPlugins, "enable-alpha-plugins", false,
		"allow function plugins (Starlark, exec); without it a function config is an error, as in kustomize")
	fs.BoolVar(&k.exec, "enable-exec", false,
		"run exec functions (raw executables): do not use for untrusted configs; with --enable-alpha-plugins but without this flag an exec function does nothing, as in kustomize")
	fs.StringArrayVarP(&k.env, "env", "e", nil, "KEY=VALUE added to the environment of exec functions (repeatable)")
	ignored := " (accepted for kustomize compatibility; applies to container functions, which krm refuses)"
	fs.Bool("network", false, "enable network access for functions that declare it"+ignored)
	fs.String("network-name", "bridge", "the docker network to run the container in"+ignored)
	fs.StringArray("mount", nil, "a list of storage options read from the filesystem"+ignored)
	fs.Bool("as-current-user", false, "use the uid and gid of the command executor to run the function in the container"+ignored)
	fs.Bool("stack-trace", false, "print a stack-trace on error (accepted for kustomize compatibility; krm prints the error only)")
	fs.StringVar(&k.reorder, "reorder", "legacy",
		"deprecated: 'legacy' sorts the output (the default), 'none' keeps the input order; sortOptions in the kustomization wins")
	_ = fs.MarkDeprecated("reorder", "use the new 'sortOptions' field in kustomization.yaml instead.")
	fs.BoolVar(&k.managedBy, "enable-managedby-label", false, "deprecated: label every object app.kubernetes.io/managed-by (also with "+managedByEnv+"=on)")
	_ = fs.MarkDeprecated("enable-managedby-label",
		"The flag `enable-managedby-label` has been deprecated. Use the `managedByLabel` option in the `buildMetadata` field instead.")
	// Helm's flags other than --enable-helm and --helm-command (helm_flags.go);
	// a flag already defined is left alone.
	for _, f := range []struct{ name, usage string }{
		{"helm-api-versions", "Kubernetes api versions used by Helm for Capabilities.APIVersions"},
		{"helm-kube-version", "Kubernetes version used by Helm for Capabilities.KubeVersion"},
		{"helm-debug", "enable debug output from the Helm chart inflator generator (accepted for kustomize compatibility)"},
	} {
		if fs.Lookup(f.name) != nil {
			continue
		}
		switch f.name {
		case "helm-api-versions":
			fs.StringArray(f.name, nil, f.usage)
		case "helm-kube-version":
			fs.String(f.name, "", f.usage)
		default:
			fs.Bool(f.name, false, f.usage)
		}
	}
}

// apply validates the flags as kustomize does and sets them in opts.
func (k *kustomizeBuildFlags) apply(fs *pflag.FlagSet, opts *build.Options, stderr io.Writer) error {
	switch k.reorder {
	case "legacy", emit.ReorderNone:
	default:
		return fmt.Errorf("illegal flag value --reorder %s; legal values: [legacy none]", k.reorder)
	}
	if fs.Changed("reorder") {
		opts.Reorder = k.reorder
	}
	opts.Functions = build.Functions{Alpha: k.alphaPlugins, Exec: k.exec, Env: k.env}
	// Helm's capability flags override every chart's, as in kustomize.
	if v, err := fs.GetStringArray("helm-api-versions"); err == nil {
		opts.Helm.ApiVersions = v
	}
	if v, err := fs.GetString("helm-kube-version"); err == nil {
		opts.Helm.KubeVersion = v
	}
	if v, err := fs.GetBool("helm-debug"); err == nil {
		opts.Helm.Debug = v
	}
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
