package fuzztree

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

func TestSameSeedSameTree(t *testing.T) {
	for seed := int64(0); seed < 50; seed++ {
		a, b := Generate(seed), Generate(seed)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two different trees", seed)
		}
	}
	if reflect.DeepEqual(Generate(1), Generate(2)) {
		t.Error("seeds 1 and 2 give the same tree")
	}
}

func TestTreesAreYAMLWithATarget(t *testing.T) {
	fields := map[string]bool{}
	for seed := int64(0); seed < 200; seed++ {
		tr := Generate(seed)
		if _, ok := tr.Files[tr.Target+"/kustomization.yaml"]; !ok {
			t.Fatalf("seed %d: no kustomization in the target %s", seed, tr.Target)
		}
		for p, c := range tr.Files {
			if !strings.HasSuffix(p, ".yaml") {
				continue
			}
			if _, err := kio.FromBytes([]byte(c)); err != nil {
				t.Fatalf("seed %d: %s is not YAML: %v\n%s", seed, p, err, c)
			}
			if strings.HasSuffix(p, "kustomization.yaml") {
				for _, line := range strings.Split(c, "\n") {
					if f, _, ok := strings.Cut(line, ":"); ok && f != "" && !strings.HasPrefix(f, " ") && !strings.HasPrefix(f, "-") {
						fields[f] = true
					}
				}
			}
		}
	}
	// Every field the generator knows shows up in 200 trees.
	for _, f := range []string{"resources", "components", "namePrefix", "nameSuffix", "namespace", "labels", "commonLabels",
		"commonAnnotations", "images", "replicas", "configMapGenerator", "secretGenerator", "generatorOptions", "patches",
		"patchesStrategicMerge", "patchesJson6902", "replacements", "sortOptions", "buildMetadata", "transformers", "openapi"} {
		if !fields[f] {
			t.Errorf("no tree of 200 uses %s", f)
		}
	}
}
