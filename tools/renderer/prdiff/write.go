package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/hydrated"
)

// WriteBase renders every kustomization of the workspace at HEAD and
// writes the manifests into o.WriteBase in the layout of package hydrated
// (PKG/NAME/manifest.yaml, as krm publish lays out //PKG:NAME) with a
// hydrator.metadata naming HEAD: what main's CI keeps for the pull
// requests' --base-manifests.
func WriteBase(o Options, log io.Writer) error {
	dir := o.WriteBase
	ws, err := workspaceDir(o)
	if err != nil {
		return err
	}
	head, err := git(ws, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return err
	}
	head = strings.TrimSpace(head)
	// The metadata says the renders are HEAD's: they must be.
	status, err := git(ws, "status", "--porcelain", "--untracked-files=no", "--", ".")
	if err != nil {
		return err
	}
	if status != "" {
		first, _, _ := strings.Cut(status, "\n") // XY PATH
		return fmt.Errorf("--write-base-manifests: the workspace %s has uncommitted changes (%s ...): the renders would not be HEAD's; commit them, or write from a clean checkout", ws, first[min(3, len(first)):])
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("--write-base-manifests %s: the directory is not empty: give a new one", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("--write-base-manifests %s: %w", dir, err)
	}
	build, err := buildFlags(o)
	if err != nil {
		return err
	}
	b := &Bazel{Binary: o.Bazel, Startup: o.StartupFlags, Dir: ws, BuildFlags: build, QueryFlags: o.QueryFlags, Log: log}
	targets, err := b.Query("kind(krm_kustomization_rule, //...)")
	if err != nil {
		return err
	}
	rendered, err := os.MkdirTemp("", "krm-prdiff-write-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(rendered)
	if err := b.Render(targets, rendered); err != nil {
		return fmt.Errorf("rendering HEAD (%.12s): %w", head, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	meta := hydrated.Metadata{DrySha: head,
		Commands: []string{strings.Join(append(append([]string{"bazel", "build", "--output_groups=manifests"}, o.BazelFlags...), append([]string{"--"}, targets...)...), " ")}}
	from := map[string]string{} // deployment path → its target
	for _, l := range targets {
		pkg, name, ok := splitLabel(l)
		if !ok {
			return fmt.Errorf("bazel query printed %q: not a label of the workspace", l)
		}
		src := filepath.Join(rendered, filepath.FromSlash(path.Join(pkg, name+"_manifests.yaml")))
		if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
			continue // a component: no manifests
		}
		d := hydrated.DeploymentPath(pkg, name)
		if err := hydrated.CheckPath(d); err != nil {
			return fmt.Errorf("%s: no directory for its manifests: %w", l, err)
		}
		if other, ok := from[d]; ok {
			return fmt.Errorf("%s and %s would both be %s/%s", other, l, d, hydrated.ManifestFile)
		}
		from[d] = l
		if err := copyFile(src, filepath.Join(dir, filepath.FromSlash(d), hydrated.ManifestFile)); err != nil {
			return err
		}
		meta.Deployments = append(meta.Deployments, d)
	}
	if err := os.WriteFile(filepath.Join(dir, hydrated.MetadataFile), meta.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(log, "prdiff: the manifests of %d kustomizations at %.12s written to %s (for --base-manifests)\n", len(meta.Deployments), head, dir)
	return nil
}
