// Package krmtest is what the renderer's tests set up again and again: an in-memory file
// system holding some files, and kustomize's plugin helpers, resource maps and configured
// plugins over it. It holds no renderer package (Go lets only tools/renderer import those),
// so a test passes it the loader it builds.
package krmtest

import (
	"fmt"
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

// Quote is s as a double-quoted YAML scalar: quotes and backslashes escaped, and every
// character YAML does not allow raw (C0 and C1 controls, DEL) or reads as a line break
// (NEL, U+2028, U+2029) or drops (a BOM) written as \uXXXX.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0xfeff || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
