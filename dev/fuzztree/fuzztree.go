// Package fuzztree generates random kustomization trees for differential
// testing against kustomize: bases, components and overlays of overlays,
// with resources of many kinds and random uses of the kustomization fields
// (labels in all forms, generators, patches of all kinds, replacements,
// name references, images, replicas, ...), some of them invalid on purpose.
// The same seed always gives the same tree.
package fuzztree

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// Tree is a generated kustomization tree.
type Tree struct {
	// Files maps slash-separated paths to contents.
	Files map[string]string
	// Target is the directory to build.
	Target string
}

// Generate returns the tree for seed.
func Generate(seed int64) *Tree {
	g := &gen{r: rand.New(rand.NewSource(seed)), files: map[string]string{}, scopes: map[string][]object{}}
	return g.tree()
}

type gen struct {
	r     *rand.Rand
	files map[string]string
	// objects in scope of the kustomization being written (its own and its
	// bases'), for name references, patches and replacements.
	objects []object
	// scopes holds each written kustomization's objects by directory.
	scopes map[string][]object
	nextID int
	// inComponent is set while a component is written.
	inComponent bool
}

// object is a resource the tree defines.
type object struct {
	kind, name string
	labels     map[string]string
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *gen) intn(n int) int        { return g.r.Intn(n) }

func (g *gen) pick(list ...string) string { return list[g.r.Intn(len(list))] }

// word is a short identifier; a small vocabulary makes collisions (and so
// merges, conflicts and shared labels) frequent.
func (g *gen) word() string {
	return g.pick("app", "web", "db", "cache", "api", "team", "tier", "env", "role", "x")
}

func (g *gen) value() string {
	return g.pick("a", "b", "prod", "dev", "v1", "v2", "blue", "green", "1", "true", "")
}

func (g *gen) tree() *Tree {
	nBases := 1 + g.intn(3)
	var bases []string
	for i := 0; i < nBases; i++ {
		dir := fmt.Sprintf("base%d", i)
		g.kustomization(dir, nil, nil, false)
		bases = append(bases, dir)
	}
	var comps []string
	for i := 0; i < g.intn(3); i++ {
		dir := fmt.Sprintf("comp%d", i)
		g.kustomization(dir, nil, nil, true)
		comps = append(comps, dir)
	}
	// Overlays of overlays: each level includes the previous one and maybe
	// bases not used yet.
	prev := ""
	levels := 1 + g.intn(3)
	var used []string
	for l := 0; l < levels; l++ {
		dir := fmt.Sprintf("overlay%d", l)
		var deps []string
		if prev != "" {
			deps = append(deps, "../"+prev)
		}
		// A diamond: a variant of a base already used, under another
		// name prefix (else its objects would collide).
		if len(used) > 0 && g.chance(0.3) {
			variant := fmt.Sprintf("variant%d", l)
			g.files[variant+"/kustomization.yaml"] = fmt.Sprintf("namePrefix: v%d-\n", l)
			g.kustomizationWith(variant, []string{"../" + used[g.intn(len(used))]}, nil, false,
				g.files[variant+"/kustomization.yaml"])
			deps = append(deps, "../"+variant)
		}
		for len(bases) > 0 && (prev == "" || g.chance(0.3)) {
			deps = append(deps, "../"+bases[0])
			used = append(used, bases[0])
			bases = bases[1:]
			if g.chance(0.5) {
				break
			}
		}
		// A component used twice in a chain adds its objects twice: an
		// error; use each once.
		var cs, unused []string
		for _, c := range comps {
			if g.chance(0.4) {
				cs = append(cs, "../"+c)
			} else {
				unused = append(unused, c)
			}
		}
		comps = unused
		g.kustomization(dir, deps, cs, false)
		prev = dir
	}
	return &Tree{Files: g.files, Target: prev}
}

// kustomization writes dir/kustomization.yaml with its own resources,
// the given bases and components, and random fields.
func (g *gen) kustomization(dir string, bases, comps []string, component bool) {
	g.kustomizationWith(dir, bases, comps, component, "")
}

// kustomizationWith is kustomization with head written first.
func (g *gen) kustomizationWith(dir string, bases, comps []string, component bool, head string) {
	var k strings.Builder
	k.WriteString(head)
	if component {
		k.WriteString("apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n")
	}
	g.objects = nil
	for _, d := range append(append([]string{}, bases...), comps...) {
		g.objects = append(g.objects, g.scopes[strings.TrimPrefix(d, "../")]...)
	}
	g.inComponent = component
	if component {
		// A component acts on its parent's objects: any made so far.
		dirs := make([]string, 0, len(g.scopes))
		for d := range g.scopes {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			g.objects = append(g.objects, g.scopes[d]...)
		}
	}
	defer func() { g.scopes[dir] = g.objects }()
	var resources []string
	resources = append(resources, bases...)
	nOwn := g.intn(3)
	if len(bases) == 0 && !component {
		nOwn++
	}
	for i := 0; i < nOwn; i++ {
		file := fmt.Sprintf("r%d.yaml", i)
		g.files[dir+"/"+file] = g.resources()
		resources = append(resources, file)
	}
	if g.chance(0.03) {
		resources = append(resources, "missing.yaml") // an error case
	}
	list(&k, "resources", resources)
	list(&k, "components", comps)
	fields := []func(*strings.Builder, string){
		g.namePrefix, g.namespace, g.labels, g.labels, g.commonLabels, g.commonAnnotations,
		g.images, g.replicas, g.configMapGenerator, g.secretGenerator, g.generatorOptions,
		g.patches, g.patchesStrategicMerge, g.patchesJSON6902, g.replacements, g.sortOptions,
		g.buildMetadata, g.labelTransformer, g.openapi,
	}
	for _, f := range fields {
		if g.chance(0.3) {
			f(&k, dir)
		}
	}
	g.files[dir+"/kustomization.yaml"] = k.String()
}

func list(k *strings.Builder, field string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(k, "%s:\n", field)
	for _, it := range items {
		fmt.Fprintf(k, "- %s\n", it)
	}
}

// labelMap returns 1-2 random labels.
func (g *gen) labelMap() map[string]string {
	m := map[string]string{}
	for i := 0; i <= g.intn(2); i++ {
		m[g.word()] = g.value()
	}
	return m
}

func writeMap(k *strings.Builder, indent string, m map[string]string) {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		fmt.Fprintf(k, "%s%s: %q\n", indent, key, m[key])
	}
}

func (g *gen) id() int { g.nextID++; return g.nextID }

// resources returns one file of 1-3 objects.
func (g *gen) resources() string {
	var docs []string
	for i := 0; i <= g.intn(3); i++ {
		docs = append(docs, g.resource())
	}
	return strings.Join(docs, "---\n")
}

var workloadKinds = []string{"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet"}

func (g *gen) resource() string {
	name := fmt.Sprintf("%s%d", g.word(), g.id())
	labels := map[string]string{}
	if g.chance(0.7) {
		labels = g.labelMap()
	}
	kind := g.pick("Deployment", "Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet",
		"Service", "Service", "ConfigMap", "Secret", "ServiceAccount", "Role", "RoleBinding", "Ingress",
		"PersistentVolumeClaim", "HorizontalPodAutoscaler", "NetworkPolicy", "PodDisruptionBudget", "MyCRD")
	g.objects = append(g.objects, object{kind: kind, name: name, labels: labels})
	var b strings.Builder
	meta := func(apiVersion string) {
		fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n", apiVersion, kind, name)
		if len(labels) > 0 {
			b.WriteString("  labels:\n")
			writeMap(&b, "    ", labels)
		}
		if g.chance(0.2) {
			b.WriteString("  annotations:\n")
			writeMap(&b, "    ", g.labelMap())
		}
	}
	switch kind {
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet":
		meta("apps/v1")
		b.WriteString("spec:\n")
		if kind != "DaemonSet" && g.chance(0.7) {
			fmt.Fprintf(&b, "  replicas: %d\n", g.intn(4))
		}
		if kind == "StatefulSet" && g.chance(0.5) {
			fmt.Fprintf(&b, "  serviceName: %s\n", g.refName("Service"))
		}
		g.selector(&b, "  ", labels)
		g.podTemplate(&b, "  ", labels)
	case "Job":
		meta("batch/v1")
		b.WriteString("spec:\n")
		g.podTemplate(&b, "  ", labels)
	case "CronJob":
		meta("batch/v1")
		b.WriteString("spec:\n  schedule: \"* * * * *\"\n  jobTemplate:\n    spec:\n")
		g.podTemplate(&b, "      ", labels)
	case "Service":
		meta("v1")
		b.WriteString("spec:\n")
		if len(labels) > 0 && g.chance(0.8) {
			b.WriteString("  selector:\n")
			writeMap(&b, "    ", labels)
		}
		b.WriteString("  ports:\n  - port: 80\n")
	case "ConfigMap":
		meta("v1")
		b.WriteString("data:\n")
		writeMap(&b, "  ", g.labelMap())
	case "Secret":
		meta("v1")
		b.WriteString("type: Opaque\nstringData:\n")
		writeMap(&b, "  ", g.labelMap())
	case "ServiceAccount":
		meta("v1")
	case "Role":
		meta("rbac.authorization.k8s.io/v1")
		b.WriteString("rules:\n- apiGroups: [\"\"]\n  resources: [configmaps]\n  verbs: [get]\n")
	case "RoleBinding":
		meta("rbac.authorization.k8s.io/v1")
		fmt.Fprintf(&b, "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: %s\n", g.refName("Role"))
		fmt.Fprintf(&b, "subjects:\n- kind: ServiceAccount\n  name: %s\n", g.refName("ServiceAccount"))
		if g.chance(0.5) {
			fmt.Fprintf(&b, "  namespace: %s\n", g.pick("default", "other"))
		}
	case "Ingress":
		meta("networking.k8s.io/v1")
		fmt.Fprintf(&b, "spec:\n  rules:\n  - host: example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: %s\n            port:\n              number: 80\n", g.refName("Service"))
	case "PersistentVolumeClaim":
		meta("v1")
		b.WriteString("spec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n")
	case "HorizontalPodAutoscaler":
		meta("autoscaling/v2")
		fmt.Fprintf(&b, "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: %s\n  maxReplicas: 3\n", g.refName("Deployment"))
	case "NetworkPolicy":
		meta("networking.k8s.io/v1")
		b.WriteString("spec:\n  podSelector:\n    matchLabels:\n")
		writeMap(&b, "      ", g.labelMap())
	case "PodDisruptionBudget":
		meta("policy/v1")
		b.WriteString("spec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n")
		writeMap(&b, "      ", g.labelMap())
	default:
		meta("example.com/v1")
		b.WriteString("spec:\n  size: 1\n  selector:\n    matchLabels:\n")
		writeMap(&b, "      ", g.labelMap())
		b.WriteString("  items:\n  - name: a\n    value: \"1\"\n  - name: b\n    value: \"2\"\n")
	}
	return b.String()
}

// refName names an object of kind made so far, or a new name.
func (g *gen) refName(kind string) string {
	var names []string
	for _, o := range g.objects {
		if o.kind == kind {
			names = append(names, o.name)
		}
	}
	if len(names) == 0 || g.chance(0.2) {
		return g.word() + "-ref"
	}
	return names[g.intn(len(names))]
}

func (g *gen) selector(b *strings.Builder, indent string, labels map[string]string) {
	if len(labels) == 0 && g.chance(0.5) {
		return
	}
	fmt.Fprintf(b, "%sselector:\n%s  matchLabels:\n", indent, indent)
	if len(labels) == 0 {
		labels = g.labelMap()
	}
	writeMap(b, indent+"    ", labels)
}

func (g *gen) podTemplate(b *strings.Builder, indent string, labels map[string]string) {
	fmt.Fprintf(b, "%stemplate:\n", indent)
	if len(labels) > 0 || g.chance(0.3) {
		fmt.Fprintf(b, "%s  metadata:\n", indent)
		if len(labels) > 0 {
			fmt.Fprintf(b, "%s    labels:\n", indent)
			writeMap(b, indent+"      ", labels)
		}
		if g.chance(0.3) {
			fmt.Fprintf(b, "%s    annotations:\n", indent)
			writeMap(b, indent+"      ", g.labelMap())
		}
	}
	fmt.Fprintf(b, "%s  spec:\n", indent)
	if g.chance(0.3) {
		fmt.Fprintf(b, "%s    serviceAccountName: %s\n", indent, g.refName("ServiceAccount"))
	}
	fmt.Fprintf(b, "%s    containers:\n", indent)
	for i := 0; i <= g.intn(2); i++ {
		fmt.Fprintf(b, "%s    - name: c%d\n%s      image: %s\n", indent, i, indent, g.image())
		if g.chance(0.4) {
			fmt.Fprintf(b, "%s      env:\n%s      - name: E\n%s        valueFrom:\n%s          configMapKeyRef:\n%s            name: %s\n%s            key: k\n",
				indent, indent, indent, indent, indent, g.refName("ConfigMap"), indent)
		}
		if g.chance(0.2) {
			fmt.Fprintf(b, "%s      envFrom:\n%s      - secretRef:\n%s          name: %s\n", indent, indent, indent, g.refName("Secret"))
		}
	}
	if g.chance(0.3) {
		fmt.Fprintf(b, "%s    volumes:\n%s    - name: v\n%s      configMap:\n%s        name: %s\n", indent, indent, indent, indent, g.refName("ConfigMap"))
	}
}

func (g *gen) image() string {
	img := g.pick("nginx", "redis", "docker.io/library/busybox", "gcr.io/p/app", "postgres")
	switch g.intn(3) {
	case 0:
		img += ":" + g.pick("1.0", "latest", "2")
	case 1:
		img += "@sha256:" + strings.Repeat("a", 64)
	}
	return img
}

// someObject returns an object in scope, of one of kinds if given (or,
// rarely, a made-up one: an error case).
func (g *gen) someObject(kinds ...string) object {
	var in []object
	for _, o := range g.objects {
		if len(kinds) == 0 || strings.Contains(" "+strings.Join(kinds, " ")+" ", " "+o.kind+" ") {
			in = append(in, o)
		}
	}
	if len(in) == 0 || g.chance(0.02) {
		kind := "Deployment"
		if len(kinds) > 0 {
			kind = kinds[0]
		}
		return object{kind: kind, name: "nothing"}
	}
	return in[g.intn(len(in))]
}

func (g *gen) namePrefix(k *strings.Builder, _ string) {
	if g.chance(0.6) && !strings.HasPrefix(k.String(), "namePrefix:") {
		fmt.Fprintf(k, "namePrefix: %s-\n", g.word())
	}
	if g.chance(0.4) {
		fmt.Fprintf(k, "nameSuffix: -%s\n", g.word())
	}
}

func (g *gen) namespace(k *strings.Builder, _ string) {
	fmt.Fprintf(k, "namespace: %s\n", g.pick("ns1", "ns2", "default"))
}

// labels writes a labels field: several entries with and without
// includeSelectors, includeTemplates and fields.
func (g *gen) labels(k *strings.Builder, _ string) {
	k.WriteString("labels:\n")
	for i := 0; i <= g.intn(3); i++ {
		k.WriteString("- pairs:\n")
		writeMap(k, "    ", g.labelMap())
		if g.chance(0.4) {
			fmt.Fprintf(k, "  includeSelectors: %v\n", g.chance(0.7))
		}
		if g.chance(0.4) {
			fmt.Fprintf(k, "  includeTemplates: %v\n", g.chance(0.7))
		}
		if g.chance(0.2) {
			fmt.Fprintf(k, "  fields:\n  - path: %s\n", g.pick("spec/selector/matchLabels", "spec/template/metadata/labels", "metadata/annotations", "spec/selector"))
			if g.chance(0.5) {
				fmt.Fprintf(k, "    kind: %s\n", g.pick(workloadKinds...))
			}
			if g.chance(0.5) {
				k.WriteString("    create: true\n")
			}
		}
	}
}

func (g *gen) commonLabels(k *strings.Builder, _ string) {
	k.WriteString("commonLabels:\n")
	writeMap(k, "  ", g.labelMap())
}

func (g *gen) commonAnnotations(k *strings.Builder, _ string) {
	k.WriteString("commonAnnotations:\n")
	writeMap(k, "  ", g.labelMap())
}

func (g *gen) images(k *strings.Builder, _ string) {
	k.WriteString("images:\n")
	for i := 0; i <= g.intn(2); i++ {
		fmt.Fprintf(k, "- name: %s\n", g.pick("nginx", "redis", "busybox", "docker.io/library/busybox", "gcr.io/p/app", "postgres"))
		switch g.intn(4) {
		case 0:
			fmt.Fprintf(k, "  newTag: %q\n", g.pick("1.2", "3", "latest"))
		case 1:
			fmt.Fprintf(k, "  newName: %s\n", g.pick("my.registry/x", "quay.io/y"))
		case 2:
			fmt.Fprintf(k, "  digest: sha256:%s\n", strings.Repeat("b", 64))
		default:
			fmt.Fprintf(k, "  newName: my.registry/z\n  newTag: \"9\"\n")
		}
	}
}

func (g *gen) replicas(k *strings.Builder, _ string) {
	o := g.someObject("Deployment", "StatefulSet", "ReplicaSet")
	if o.name == "nothing" && g.chance(0.8) {
		return
	}
	fmt.Fprintf(k, "replicas:\n- name: %s\n  count: %d\n", o.name, g.intn(5))
}

func (g *gen) configMapGenerator(k *strings.Builder, dir string) {
	g.generator(k, dir, "configMapGenerator", "ConfigMap")
}

func (g *gen) secretGenerator(k *strings.Builder, dir string) {
	g.generator(k, dir, "secretGenerator", "Secret")
}

func (g *gen) generator(k *strings.Builder, dir, field, kind string) {
	fmt.Fprintf(k, "%s:\n", field)
	for i := 0; i <= g.intn(2); i++ {
		name := fmt.Sprintf("%s-cfg%d", g.word(), g.id())
		var existing []object
		for _, o := range g.objects {
			if o.kind == kind && strings.Contains(o.name, "-cfg") {
				existing = append(existing, o)
			}
		}
		if len(existing) > 0 && !g.inComponent && g.chance(0.4) {
			name = existing[g.intn(len(existing))].name
			fmt.Fprintf(k, "- name: %s\n  behavior: %s\n", name, g.pick("merge", "replace", "merge"))
		} else {
			g.objects = append(g.objects, object{kind: kind, name: name})
			fmt.Fprintf(k, "- name: %s\n", name)
		}
		k.WriteString("  literals:\n")
		fmt.Fprintf(k, "  - %s=%s\n", g.word(), g.value())
		if g.chance(0.3) {
			file := fmt.Sprintf("%s-%d.env", g.word(), g.id())
			g.files[dir+"/"+file] = fmt.Sprintf("e%s=%s\n", g.word(), g.value())
			fmt.Fprintf(k, "  envs:\n  - %s\n", file)
		}
		if g.chance(0.3) {
			file := fmt.Sprintf("f%d.txt", g.id())
			g.files[dir+"/"+file] = "content " + g.value() + "\n"
			fmt.Fprintf(k, "  files:\n  - %s\n", file)
		}
		if g.chance(0.3) {
			k.WriteString("  options:\n")
			if g.chance(0.5) {
				k.WriteString("    disableNameSuffixHash: true\n")
			}
			k.WriteString("    labels:\n")
			writeMap(k, "      ", g.labelMap())
		}
	}
}

func (g *gen) generatorOptions(k *strings.Builder, _ string) {
	k.WriteString("generatorOptions:\n")
	if g.chance(0.5) {
		k.WriteString("  disableNameSuffixHash: true\n")
	}
	k.WriteString("  labels:\n")
	writeMap(k, "    ", g.labelMap())
}

// smPatch is a strategic merge patch of o.
func (g *gen) smPatch(o object, indent string) string {
	var b strings.Builder
	apiVersion := map[string]string{"Deployment": "apps/v1", "StatefulSet": "apps/v1", "DaemonSet": "apps/v1", "ReplicaSet": "apps/v1",
		"Job": "batch/v1", "CronJob": "batch/v1", "Role": "rbac.authorization.k8s.io/v1", "RoleBinding": "rbac.authorization.k8s.io/v1",
		"Ingress": "networking.k8s.io/v1", "HorizontalPodAutoscaler": "autoscaling/v2", "NetworkPolicy": "networking.k8s.io/v1",
		"PodDisruptionBudget": "policy/v1", "MyCRD": "example.com/v1"}[o.kind]
	if apiVersion == "" {
		apiVersion = "v1"
	}
	fmt.Fprintf(&b, "%sapiVersion: %s\n%skind: %s\n%smetadata:\n%s  name: %s\n", indent, apiVersion, indent, o.kind, indent, indent, o.name)
	switch g.intn(3) {
	case 0:
		fmt.Fprintf(&b, "%s  labels:\n", indent)
		writeMap(&b, indent+"    ", g.labelMap())
	case 1:
		fmt.Fprintf(&b, "%s  annotations:\n", indent)
		writeMap(&b, indent+"    ", g.labelMap())
	default:
		switch o.kind {
		case "Deployment", "StatefulSet", "ReplicaSet", "DaemonSet":
			if g.chance(0.5) {
				// Merged by name under the built-in schema, replaced
				// under a custom one without the kind (openapi).
				fmt.Fprintf(&b, "%sspec:\n%s  template:\n%s    spec:\n%s      containers:\n%s      - name: c0\n%s        image: patched\n",
					indent, indent, indent, indent, indent, indent)
				break
			}
			if o.kind == "DaemonSet" {
				fmt.Fprintf(&b, "%s  labels:\n", indent)
				writeMap(&b, indent+"    ", g.labelMap())
				break
			}
			fmt.Fprintf(&b, "%sspec:\n%s  replicas: %d\n", indent, indent, g.intn(9))
		case "MyCRD":
			// Merged by name only under a schema that says so (openapi).
			fmt.Fprintf(&b, "%sspec:\n%s  items:\n%s  - name: %s\n%s    value: patched\n", indent, indent, indent, g.pick("a", "b", "c"), indent)
		case "ConfigMap":
			fmt.Fprintf(&b, "%sdata:\n", indent)
			writeMap(&b, indent+"  ", g.labelMap())
		default:
			fmt.Fprintf(&b, "%s  labels:\n", indent)
			writeMap(&b, indent+"    ", g.labelMap())
		}
	}
	return b.String()
}

func (g *gen) target(k *strings.Builder, indent string, o object) {
	fmt.Fprintf(k, "%starget:\n", indent)
	switch g.intn(4) {
	case 0:
		fmt.Fprintf(k, "%s  kind: %s\n", indent, o.kind)
	case 1:
		fmt.Fprintf(k, "%s  kind: %s\n%s  name: %s\n", indent, o.kind, indent, o.name)
	case 2:
		if len(o.labels) > 0 {
			keys := make([]string, 0, len(o.labels))
			for key := range o.labels {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			fmt.Fprintf(k, "%s  labelSelector: %s=%s\n", indent, keys[0], o.labels[keys[0]])
			return
		}
		fmt.Fprintf(k, "%s  name: %s\n", indent, o.name)
	default:
		fmt.Fprintf(k, "%s  name: %s.*\n", indent, o.name[:1])
	}
}

func (g *gen) patches(k *strings.Builder, dir string) {
	k.WriteString("patches:\n")
	for i := 0; i <= g.intn(2); i++ {
		o := g.someObject()
		switch g.intn(4) {
		case 0: // strategic merge, inline
			k.WriteString("- patch: |-\n")
			k.WriteString(g.smPatch(o, "    "))
		case 1: // strategic merge, file
			file := fmt.Sprintf("patch%d.yaml", g.id())
			g.files[dir+"/"+file] = g.smPatch(o, "")
			fmt.Fprintf(k, "- path: %s\n", file)
		case 2: // JSON 6902 with a target
			k.WriteString("- patch: |-\n")
			switch g.intn(3) {
			case 0:
				k.WriteString("    - op: add\n      path: /metadata/annotations\n      value:\n        patched: \"yes\"\n")
			case 1:
				fmt.Fprintf(k, "    - op: replace\n      path: /metadata/name\n      value: %s-renamed\n", o.name)
			default:
				k.WriteString("    - op: remove\n      path: /metadata/labels\n")
			}
			g.target(k, "  ", o)
		default: // strategic merge with a target
			k.WriteString("- patch: |-\n")
			k.WriteString(g.smPatch(object{kind: o.kind, name: "ignored"}, "    "))
			g.target(k, "  ", o)
		}
	}
}

func (g *gen) patchesStrategicMerge(k *strings.Builder, dir string) {
	file := fmt.Sprintf("psm%d.yaml", g.id())
	g.files[dir+"/"+file] = g.smPatch(g.someObject(), "")
	fmt.Fprintf(k, "patchesStrategicMerge:\n- %s\n", file)
}

func (g *gen) patchesJSON6902(k *strings.Builder, _ string) {
	o := g.someObject()
	fmt.Fprintf(k, "patchesJson6902:\n- target:\n    kind: %s\n    name: %s\n", o.kind, o.name)
	if o.kind != "ConfigMap" && o.kind != "Secret" && o.kind != "ServiceAccount" {
		k.WriteString("    group: " + map[bool]string{true: "apps", false: ""}[strings.Contains("Deployment StatefulSet DaemonSet ReplicaSet", o.kind)] + "\n")
	}
	if len(o.labels) > 0 {
		k.WriteString("  patch: |-\n    - op: add\n      path: /metadata/labels/json\n      value: patched\n")
	} else {
		k.WriteString("  patch: |-\n    - op: add\n      path: /metadata/labels\n      value:\n        json: patched\n")
	}
}

func (g *gen) replacements(k *strings.Builder, _ string) {
	src, dst := g.someObject(), g.someObject()
	fmt.Fprintf(k, "replacements:\n- source:\n    kind: %s\n    name: %s\n", src.kind, src.name)
	path := g.pick("metadata.name", "metadata.name", "kind")
	if _, ok := src.labels["app"]; ok && g.chance(0.5) {
		path = "metadata.labels.app"
	}
	fmt.Fprintf(k, "    fieldPath: %s\n", path)
	fmt.Fprintf(k, "  targets:\n  - select:\n      kind: %s\n", dst.kind)
	if g.chance(0.5) {
		fmt.Fprintf(k, "      name: %s\n", dst.name)
	}
	fmt.Fprintf(k, "    fieldPaths:\n    - %s\n", g.pick("metadata.annotations.copied", "metadata.labels.copied", "spec.template.metadata.labels.copied"))
	if g.chance(0.9) {
		k.WriteString("    options:\n      create: true\n")
	}
}

func (g *gen) sortOptions(k *strings.Builder, _ string) {
	if g.chance(0.5) {
		k.WriteString("sortOptions:\n  order: fifo\n")
		return
	}
	k.WriteString("sortOptions:\n  order: legacy\n  legacySortOptions:\n    orderFirst:\n    - Service\n    orderLast:\n    - Deployment\n")
}

func (g *gen) buildMetadata(k *strings.Builder, _ string) {
	fmt.Fprintf(k, "buildMetadata: [%s]\n", g.pick("managedByLabel", "originAnnotations", "transformerAnnotations"))
}

// labelTransformer configures the LabelTransformer directly in transformers.
func (g *gen) labelTransformer(k *strings.Builder, dir string) {
	file := fmt.Sprintf("labeltransformer%d.yaml", g.id())
	var b strings.Builder
	b.WriteString("apiVersion: builtin\nkind: LabelTransformer\nmetadata:\n  name: lt\nlabels:\n")
	writeMap(&b, "  ", g.labelMap())
	b.WriteString("fieldSpecs:\n- path: metadata/labels\n  create: true\n")
	if g.chance(0.5) {
		b.WriteString("- path: spec/selector/matchLabels\n  kind: Deployment\n  create: true\n")
	}
	g.files[dir+"/"+file] = b.String()
	fmt.Fprintf(k, "transformers:\n- %s\n", file)
}

// openapiSchemas are custom schemas for `openapi`: kyaml uses one instead
// of its built-in schema (or with it, once the built-in one was read), so
// whether a list is merged by key or replaced depends on which applies.
var openapiSchemas = []string{
	`{"definitions": {"com.example.v1.MyCRD": {"type": "object",
  "x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "MyCRD", "version": "v1"}],
  "properties": {"spec": {"type": "object", "properties": {"items": {"type": "array",
    "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge",
    "items": {"type": "object"}}}}}}}}
`,
	`{"definitions": {}}
`,
	`definitions:
  io.k8s.api.apps.v1.Deployment:
    type: object
    x-kubernetes-group-version-kind:
    - group: apps
      kind: Deployment
      version: v1
`,
}

// openapi sets the schema (rarely: kyaml applies the first one met to the
// rest of the build, so it changes what happens in other kustomizations).
func (g *gen) openapi(k *strings.Builder, dir string) {
	if !g.chance(0.3) {
		return
	}
	if g.chance(0.2) {
		k.WriteString("openapi:\n  version: v1.21.2\n")
		return
	}
	i := g.intn(len(openapiSchemas))
	file := fmt.Sprintf("schema%d.json", i)
	if i == 2 {
		file = "schema.yaml"
	}
	g.files[dir+"/"+file] = openapiSchemas[i]
	fmt.Fprintf(k, "openapi:\n  path: %s\n", file)
}
