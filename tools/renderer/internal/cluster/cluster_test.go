package cluster

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// The id of the ApplySet specification's example parent (kind Foo, group foo.bar), as kubectl
// computes it.
func TestApplySetID(t *testing.T) {
	if got, want := applySetID("test-foo", "test-ns", "Foo", "foo.bar"), "applyset-f9Rk5tKHoB72oV1tU2iFKxDwL8MBZTjMHFQ8V9WNNlA-v1"; got != want {
		t.Errorf("ID %s, want %s", got, want)
	}
	s, err := ParseApplySet("shop", "prod")
	if err != nil || *s != (ApplySet{Kind: "Secret", Name: "shop", Namespace: "prod"}) {
		t.Errorf("ParseApplySet(shop): %+v, %v", s, err)
	}
	if s, err := ParseApplySet("configmaps/shop", "prod"); err != nil || s.Kind != "ConfigMap" {
		t.Errorf("ParseApplySet(configmaps/shop): %+v, %v", s, err)
	}
	for _, bad := range []string{"deployments/x", "", "secrets/", "a/b/c"} {
		if _, err := ParseApplySet(bad, "prod"); err == nil || !strings.Contains(err.Error(), "secrets/NAME") {
			t.Errorf("ParseApplySet(%q): %v", bad, err)
		}
	}
}

func TestAllowContext(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	if err := AllowContext("prod", false, nil); !errors.Is(err, ErrContext) || !strings.Contains(err.Error(), "--context") {
		t.Errorf("current context, no allow-list: %v", err)
	}
	if err := AllowContext("prod", true, nil); err != nil {
		t.Errorf("explicit context: %v", err)
	}
	if err := AllowContext("dev", false, []string{"dev"}); err != nil {
		t.Errorf("allowed: %v", err)
	}
	t.Setenv(AllowedContextsEnv, "dev, staging")
	if err := AllowContext("staging", false, nil); err != nil {
		t.Errorf("allowed by %s: %v", AllowedContextsEnv, err)
	}
	if err := AllowContext("prod", true, nil); !errors.Is(err, ErrContext) || !strings.Contains(err.Error(), "dev, staging") {
		t.Errorf("explicit context outside the allow-list: %v", err)
	}
}

// A run target starts in its runfiles: relative kubeconfig files are taken relative to
// KubeconfigBase (where the user typed the command), absolute ones and ~/.kube/config as given.
func TestLoadingRulesBase(t *testing.T) {
	sep := string(os.PathListSeparator)
	t.Setenv("KUBECONFIG", "kc/a.yaml"+sep+"/etc/b.yaml")
	r := loadingRules(Config{Kubeconfig: "my.yaml", KubeconfigBase: "/work/repo"})
	if want := []string{"/work/repo/kc/a.yaml", "/etc/b.yaml"}; r.ExplicitPath != "/work/repo/my.yaml" || !reflect.DeepEqual(r.Precedence, want) {
		t.Errorf("with a base: %q, %q; want /work/repo/my.yaml, %q", r.ExplicitPath, r.Precedence, want)
	}
	r = loadingRules(Config{Kubeconfig: "/abs.yaml", KubeconfigBase: "/work/repo"})
	if r.ExplicitPath != "/abs.yaml" {
		t.Errorf("absolute --kubeconfig with a base: %q", r.ExplicitPath)
	}
	r = loadingRules(Config{Kubeconfig: "my.yaml"})
	if want := []string{"kc/a.yaml", "/etc/b.yaml"}; r.ExplicitPath != "my.yaml" || !reflect.DeepEqual(r.Precedence, want) {
		t.Errorf("without a base: %q, %q; want my.yaml, %q", r.ExplicitPath, r.Precedence, want)
	}
}

// pick keeps what a field set names: map fields, list items by key, set values and index.
func TestPick(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "x", "labels": map[string]any{"a": "1", "b": "2"}},
		"spec": map[string]any{
			"replicas": int64(3), "defaulted": "yes",
			"containers": []any{
				map[string]any{"name": "web", "image": "i", "imagePullPolicy": "Always"},
				map[string]any{"name": "side", "image": "j"},
			},
			"ports":      []any{map[string]any{"containerPort": int64(80), "protocol": "TCP"}},
			"finalizers": []any{"f1", "f2"},
			"args":       []any{"x", "y"},
		},
	}
	tree := map[string]any{
		"f:metadata": map[string]any{"f:labels": map[string]any{".": map[string]any{}, "f:a": map[string]any{}}},
		"f:spec": map[string]any{
			"f:replicas":   map[string]any{},
			"f:containers": map[string]any{`k:{"name":"web"}`: map[string]any{".": map[string]any{}, "f:name": map[string]any{}, "f:image": map[string]any{}}},
			"f:ports":      map[string]any{`k:{"containerPort":80,"protocol":"TCP"}`: map[string]any{}},
			"f:finalizers": map[string]any{`v:"f2"`: map[string]any{}},
			"f:args":       map[string]any{"i:1": map[string]any{}},
		},
	}
	want := map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"a": "1"}},
		"spec": map[string]any{
			"replicas":   int64(3),
			"containers": []any{map[string]any{"name": "web", "image": "i"}},
			"ports":      []any{map[string]any{"containerPort": int64(80), "protocol": "TCP"}},
			"finalizers": []any{"f2"},
			"args":       []any{"y"},
		},
	}
	if got := pick(obj, tree); !reflect.DeepEqual(got, want) {
		t.Errorf("pick:\n%v\nwant\n%v", got, want)
	}
}

func TestReadManifestsBounds(t *testing.T) {
	for name, c := range map[string]struct{ yaml, msg string }{
		"alias":   {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nx: &a [1]\ny: *a\n", "aliases are not allowed"},
		"no name": {"apiVersion: v1\nkind: ConfigMap\n", "needs apiVersion, kind and metadata.name"},
		"twice":   {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", "an object can be applied once"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ReadManifests([]string{"-"}, strings.NewReader(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want %q", err, c.msg)
			}
			if !errors.Is(err, yamlread.ErrMalformed) { // the commands exit 2
				t.Errorf("%v is not yamlread.ErrMalformed", err)
			}
		})
	}
	big := strings.NewReader(strings.Repeat("#", yamlread.MaxFileBytes+1))
	if _, err := ReadManifests([]string{"-"}, big); !errors.Is(err, yamlread.ErrMalformed) {
		t.Errorf("over MaxFileBytes: %v", err)
	}
}
