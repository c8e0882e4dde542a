// Package krmtest is what the renderer's tests set up again and again: an in-memory file
// system holding some files, and kustomize's plugin helpers, resource maps and configured
// plugins over it. It holds no renderer package (Go lets only tools/renderer import those),
// so a test passes it the loader it builds.
package krmtest

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/hasher"
	"sigs.k8s.io/kustomize/api/ifc"
	"sigs.k8s.io/kustomize/api/provider"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// MemFS is an in-memory file system holding files (absolute path → content); a path that
// ends in "/" is an empty directory.
func MemFS(t testing.TB, files map[string]string) filesys.FileSystem {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	for p, c := range files {
		if strings.HasSuffix(p, "/") {
			if err := fs.MkdirAll(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fs.WriteFile(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	return fs
}

// NewFactory is a resource map factory hashing as kustomize does (krm's too).
func NewFactory() *resmap.Factory {
	return resmap.NewFactory(resource.NewFactory(&hasher.Hasher{}))
}

// PluginHelpers are the helpers kustomize configures plugins with: ldr, kustomize's
// default field validator, a NewFactory and pc (types.DisabledPluginConfig() for none).
func PluginHelpers(ldr ifc.Loader, pc *types.PluginConfig) *resmap.PluginHelpers {
	return resmap.NewPluginHelpers(ldr, provider.NewDefaultDepProvider().GetFieldValidator(), NewFactory(), pc)
}

// ResMap is the resource map of the YAML stream y, read by f.
func ResMap(t testing.TB, f *resmap.Factory, y string) resmap.ResMap {
	t.Helper()
	m, err := f.NewResMapFromBytes([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// YAML is m as kustomize prints it (AsYaml).
func YAML(t testing.TB, m resmap.ResMap) string {
	t.Helper()
	b, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Configure configures plugin p from the YAML cfg with h and returns it.
func Configure[P resmap.Configurable](t testing.TB, p P, h *resmap.PluginHelpers, cfg string) P {
	t.Helper()
	if err := p.Config(h, []byte(cfg)); err != nil {
		t.Fatalf("Config: %v", err)
	}
	return p
}
