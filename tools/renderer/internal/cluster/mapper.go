package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// mapper maps kinds to resources from the API server's discovery documents, read per group
// version as objects need them (a render touches a few), so it links no client-go scheme and
// each response is bounded like any other.
type mapper struct {
	c        *Client
	versions map[string]*resourceList // by group/version; nil: not served
	groups   map[string]string        // group → preferred version; "": not served
}

// resourceList is the part of a metav1.APIResourceList the mapper reads.
type resourceList struct {
	Resources []struct {
		Name       string `json:"name"`
		Kind       string `json:"kind"`
		Namespaced bool   `json:"namespaced"`
	} `json:"resources"`
}

// mapping is where the API serves a kind.
type mapping struct {
	Resource   schema.GroupVersionResource
	Namespaced bool
}

// NoMappingError says that the server does not serve a kind (yet: its CRD may be in the render).
type NoMappingError struct{ GVK schema.GroupVersionKind }

func (e *NoMappingError) Error() string {
	return fmt.Sprintf("the API server serves no kind %s in %s (is its CustomResourceDefinition installed?)", e.GVK.Kind, e.GVK.GroupVersion())
}

func (m *mapper) mapping(ctx context.Context, gvk schema.GroupVersionKind) (mapping, error) {
	gv := gvk.GroupVersion().String()
	list, ok := m.versions[gv]
	if !ok {
		path := "/apis/" + gv
		if gvk.Group == "" {
			path = "/api/" + gvk.Version
		}
		body, err := m.c.get(ctx, path)
		if err != nil {
			return mapping{}, err
		}
		if body != nil {
			list = &resourceList{}
			if err := json.Unmarshal(body, list); err != nil {
				return mapping{}, fmt.Errorf("discovery %s: %w", path, err)
			}
		}
		m.versions[gv] = list
	}
	if list != nil {
		for _, r := range list.Resources {
			if r.Kind == gvk.Kind && !strings.Contains(r.Name, "/") {
				return mapping{Resource: gvk.GroupVersion().WithResource(r.Name), Namespaced: r.Namespaced}, nil
			}
		}
	}
	return mapping{}, &NoMappingError{GVK: gvk}
}

// preferred maps a group and kind (an ApplySet's contains-group-kinds) through the group's
// preferred version; ok is false when the server no longer serves it.
func (m *mapper) preferred(ctx context.Context, gk schema.GroupKind) (mapping, bool, error) {
	version := "v1"
	if gk.Group != "" {
		v, ok := m.groups[gk.Group]
		if !ok {
			body, err := m.c.get(ctx, "/apis/"+gk.Group)
			if err != nil {
				return mapping{}, false, err
			}
			if body != nil {
				var g struct {
					PreferredVersion struct{ Version string } `json:"preferredVersion"`
				}
				if err := json.Unmarshal(body, &g); err != nil {
					return mapping{}, false, fmt.Errorf("discovery /apis/%s: %w", gk.Group, err)
				}
				v = g.PreferredVersion.Version
			}
			m.groups[gk.Group] = v
		}
		if v == "" {
			return mapping{}, false, nil
		}
		version = v
	}
	mp, err := m.mapping(ctx, gk.WithVersion(version))
	if _, missing := err.(*NoMappingError); missing {
		return mapping{}, false, nil
	}
	return mp, err == nil, err
}

// forget drops what the mapper knows of a group (its CRDs were just established).
func (m *mapper) forget(group string) {
	delete(m.groups, group)
	for gv := range m.versions {
		if schema.FromAPIVersionAndKind(gv, "").Group == group {
			delete(m.versions, gv)
		}
	}
}
