//go:build krm_lazyhelm

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"sigs.k8s.io/kustomize/api/resmap"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/helmsupport"
)

// A krm built with -tags krm_lazyhelm links neither Helm nor client-go, so it starts as
// fast as the lean renderer: the initialisation of Helm's packages (the JSON Schema
// meta-schemas, client-go's scheme of every built-in kind) doubled the start-up of every
// process, charts or not (docs/performance.md, "Start-up without Helm"). It still does
// everything the full renderer does: a build that meets a chart, a command talking to a
// cluster and a persistent worker (which may meet charts) become krm_helm, the full
// renderer beside this executable, by exec with the same command line and streams,
// before anything is read from stdin or written. The full renderer's code then does the
// work, byte for byte as when it runs alone.

// helperName is the full renderer's file name, beside this executable; helperEnv names
// another path for it; helperExecEnv is set in its environment, so that a krm without
// Helm there fails instead of running itself again and again.
const (
	helperName    = "krm_helm"
	helperEnv     = "KRM_HELM"
	helperExecEnv = "KRM_HELM_EXEC"
)

func init() {
	helmsupport.Register = func() resmap.GeneratorPlugin { return chartInHelper{} }
	clustersupport.Register = func(context.Context, clustersupport.Request) (clustersupport.Session, error) {
		return nil, execHelper("a command talking to a cluster")
	}
	becomeWorker = func() error { return execHelper("a persistent worker") }
}

// chartInHelper is the chart inflator: it hands the whole command to the helper.
type chartInHelper struct{}

func (chartInHelper) Config(h *resmap.PluginHelpers, _ []byte) error {
	if gc := h.GeneralConfig(); gc == nil || !gc.HelmConfig.Enabled {
		return fmt.Errorf("must specify --enable-helm")
	}
	return execHelper("a helm chart")
}

func (chartInHelper) Generate() (resmap.ResMap, error) {
	return nil, errors.New("helm charts are rendered by " + helperName)
}

// execHelper replaces this process by the full renderer, with the same arguments and
// environment; it returns only on failure, saying why and where the helper should be.
func execHelper(why string) error {
	if os.Getenv(helperExecEnv) != "" {
		return fmt.Errorf("%s needs Helm, and %s, run for it, has none: build it without tags (go build -o %s ./tools/renderer)", why, os.Args[0], helperName)
	}
	path := os.Getenv(helperEnv)
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("%s needs %s, the full renderer beside krm: %w", why, helperName, err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		path = filepath.Join(filepath.Dir(exe), helperName)
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("%s needs %s, the full renderer, which is not at %s: build it there (go build -o %s ./tools/renderer) or name it in %s",
			why, helperName, path, path, helperEnv)
	}
	argv := append([]string{path}, os.Args[1:]...)
	err := syscall.Exec(path, argv, append(os.Environ(), helperExecEnv+"=1"))
	return fmt.Errorf("%s needs %s: exec %s: %w", why, helperName, path, err)
}
