// Package handoff makes a krm that links neither Helm nor client-go (the default build,
// tools/renderer) do everything the full renderer does: a build that meets a chart, a command
// talking to a cluster, a persistent worker (which may meet charts) and a krm validate that
// meets a CustomResourceDefinition (checked with the API server's code, package crdcheck) or
// a ValidatingAdmissionPolicy (evaluated with it, package policycheck)
// become krm_helm, the full renderer (tools/renderer/krm_helm), by exec with the same command
// line, environment and streams, before anything is read from stdin or written. The full
// renderer's code then does the work, byte for byte as when it runs alone.
//
// Not linking them is the point: the initialisation of Helm's packages (the JSON Schema
// meta-schemas, client-go's scheme of every built-in kind) doubled the start-up of every
// process, charts or not (docs/performance.md, "Start-up").
//
// Import it for its init, which registers the chart inflator, the cluster opener, the CRD
// checker and the policy checker in helmsupport, clustersupport, crdsupport and policysupport, and pass Worker to cli.Main.
package handoff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"sigs.k8s.io/kustomize/api/resmap"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/crdsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/helmsupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"
)

// HelperName is the full renderer's file name, beside this executable or on PATH; HelperEnv
// names another path for it; ExecEnv is set in its environment, so that a krm without Helm
// there fails instead of running itself again and again.
const (
	HelperName = "krm_helm"
	HelperEnv  = "KRM_HELM"
	ExecEnv    = "KRM_HELM_EXEC"
)

// modulePath is rules_krm's module, and helperPkg the full renderer's main package in it.
const (
	modulePath = "github.com/rules-krm/rules_krm"
	helperPkg  = modulePath + "/tools/renderer/krm_helm"
)

func init() {
	helmsupport.Register = func() resmap.GeneratorPlugin { return chartInHelper{} }
	clustersupport.Register = func(context.Context, clustersupport.Request) (clustersupport.Session, error) {
		return nil, execHelper("a command talking to a cluster")
	}
	// krm validate reads files again in the helper; what it read of a pipe would be lost, so a
	// pipe among its inputs hands it over before anything is read.
	crdsupport.Register = func(replayable bool) (crdsupport.Checker, error) {
		if !replayable {
			return nil, execHelperFor("krm validate of a pipe (it may hold CustomResourceDefinitions)", crdsNeed)
		}
		return crdsInHelper{}, nil
	}
	policysupport.Register = func() (policysupport.Checker, error) {
		return nil, execHelperFor("evaluating ValidatingAdmissionPolicies", "the API server's admission code")
	}
}

// crdsNeed is what the CRD checks need.
const crdsNeed = "the API server's code for CustomResourceDefinitions"

// crdsInHelper is the CRD checker: it hands the whole command to the helper.
type crdsInHelper struct{}

func (crdsInHelper) CRD([]byte) (crdsupport.CRD, []crdsupport.Error, error) {
	return nil, nil, execHelperFor("checking CustomResourceDefinitions and their custom resources", crdsNeed)
}

// Worker replaces this process by the full renderer serving as a persistent worker; it
// returns only on failure.
func Worker() error { return execHelper("a persistent worker") }

// chartInHelper is the chart inflator: it hands the whole command to the helper.
type chartInHelper struct{}

func (chartInHelper) Config(h *resmap.PluginHelpers, _ []byte) error {
	if gc := h.GeneralConfig(); gc == nil || !gc.HelmConfig.Enabled {
		return fmt.Errorf("must specify --enable-helm")
	}
	return execHelper("a helm chart")
}

func (chartInHelper) Generate() (resmap.ResMap, error) {
	return nil, errors.New("helm charts are rendered by " + HelperName)
}

// execHelper replaces this process by the full renderer, with the same arguments and
// environment; it returns only on failure, saying why and how to install the helper.
func execHelper(why string) error { return execHelperFor(why, "Helm") }

// execHelperFor is execHelper for what needs, linked in the full renderer only.
func execHelperFor(why, needs string) error {
	if os.Getenv(ExecEnv) != "" {
		return fmt.Errorf("%s needs %s, and %s, run for it, has none: %s must be the full renderer (%s)", why, needs, os.Args[0], HelperName, helperPkg)
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return fmt.Errorf("%s needs %s, the full renderer beside krm: %w", why, HelperName, err)
	}
	bi, _ := debug.ReadBuildInfo()
	path, err := find(os.Getenv(HelperEnv), exe, exec.LookPath, bi)
	if err != nil {
		return fmt.Errorf("%s needs %w", why, err)
	}
	argv := append([]string{path}, os.Args[1:]...)
	err = syscall.Exec(path, argv, append(os.Environ(), ExecEnv+"=1"))
	return fmt.Errorf("%s needs %s: exec %s: %w", why, HelperName, path, err)
}

// find is the helper's path: named (KRM_HELM) if set, else beside exe (this executable,
// symlinks resolved: where `go install` and the release archive put both), else on PATH. The
// error says what to install, from the build information bi of this krm.
func find(named, exe string, lookPath func(string) (string, error), bi *debug.BuildInfo) (string, error) {
	if named != "" {
		if _, err := os.Stat(named); err != nil {
			return "", fmt.Errorf("%s, the full renderer, which is not at %s (%s): %w", HelperName, named, HelperEnv, err)
		}
		return named, nil
	}
	beside := filepath.Join(filepath.Dir(exe), HelperName)
	if _, err := os.Stat(beside); err == nil {
		return beside, nil
	}
	if p, err := lookPath(HelperName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s, the full renderer (Helm and client-go linked), which is neither at %s nor on PATH: %s, or name it in %s",
		HelperName, beside, installHint(bi, beside), HelperEnv)
}

// installHint says how to get the helper of this krm's version: the `go install` of the same
// version for a krm installed from the module proxy (no VCS information: not a checkout's
// build), else the build in a checkout, or the release archive's copy.
func installHint(bi *debug.BuildInfo, beside string) string {
	if bi != nil && bi.Main.Path == modulePath && bi.Main.Version != "" && bi.Main.Version != "(devel)" &&
		!strings.Contains(bi.Main.Version, "+") && !hasSetting(bi, "vcs.revision") {
		return "install it beside krm with go install " + helperPkg + "@" + bi.Main.Version
	}
	return "copy it there from the release archive, or build it there in rules_krm with go build -o " + beside + " ./tools/renderer/krm_helm"
}

func hasSetting(bi *debug.BuildInfo, key string) bool {
	for _, s := range bi.Settings {
		if s.Key == key {
			return true
		}
	}
	return false
}
