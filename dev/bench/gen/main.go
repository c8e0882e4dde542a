// Command gen writes a deterministic synthetic kustomize tree used to benchmark
// `krm build` against `kustomize build`.
//
// Usage:
//
//	go run ./dev/bench/gen -out DIR [-apps N] [-seed S] [-monorepo TEAMS]
//
// Layout (with the default 40 apps, `kustomize build DIR/all` prints ~3980
// documents):
//
//	bases/app-NN/          one base per app: Deployment, Service, ServiceAccount,
//	                       Role, RoleBinding, PVC, HPA, Ingress, PDB,
//	                       configMapGenerator (literals + file + env file),
//	                       secretGenerator (literals)
//	layers/env/            shared "env" layer: every base, commonLabels,
//	                       commonAnnotations, images, SMP + JSON6902 patches
//	envs/{dev,staging,prod}/
//	                       tier overlays of layers/env: namePrefix, commonLabels,
//	                       commonAnnotations, images, replicas, SMP + JSON6902
//	                       patches (inline and by path; targets by kind, name,
//	                       labelSelector), configMapGenerator behavior: merge
//	regions/<tier>-<region>/
//	                       overlays of a tier: namespace, nameSuffix, labels,
//	                       commonAnnotations, replicas, patches, a Namespace,
//	                       a new ConfigMap and configMapGenerator behavior: merge
//	all/                   includes every region overlay
//
// Only long-standing kustomize features are used (no components, replacements,
// vars, helm or plugins). The output depends only on -apps and -seed.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var (
	tiers   = []tier{{"dev", "dev-"}, {"staging", "stg-"}, {"prod", "prod-"}}
	regions = []string{"us-east", "eu-west", "ap-south"}
	roles   = []string{"web", "api", "worker", "gateway", "cache"}
)

type tier struct{ name, prefix string }

type app struct {
	name      string // app-NN, also the Deployment/Service/ServiceAccount/HPA/Ingress/PDB name
	role      string
	tierLabel string // "frontend" or "backend"; used by labelSelector targets
	team      int
	image     string // without tag
	tag       string
	port      int
	replicas  int
	cpu       int // millicores
	memMi     int
	storageGi int
	neighbor  string // another app whose Service/ConfigMap this one refers to
}

type gen struct {
	out   string
	rng   *rand.Rand
	apps  []app
	files int
}

func main() {
	out := flag.String("out", "", "directory to write the tree into (must not exist or be empty)")
	napps := flag.Int("apps", 40, "number of app bases")
	seed := flag.Uint64("seed", 1, "seed for the synthetic content")
	teams := flag.Int("monorepo", 0, "write the monorepo layout (monorepo.go) with this many teams instead")
	flag.Parse()
	if *out == "" || *napps < 2 || *teams < 0 || *teams > *napps || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gen -out DIR [-apps N>=2] [-seed S] [-monorepo TEAMS]")
		os.Exit(2)
	}
	if ents, err := os.ReadDir(*out); err == nil && len(ents) > 0 {
		fmt.Fprintf(os.Stderr, "gen: %s is not empty\n", *out)
		os.Exit(1)
	}
	g := &gen{out: *out, rng: rand.New(rand.NewPCG(*seed, 0x6b726d62656e6368))}
	g.makeApps(*napps)
	if *teams > 0 {
		dirs, err := g.monorepo(*teams)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "gen: wrote %d files under %s: %d kustomization directories, %d deployments (envs/*/*/*)\n",
			g.files, *out, dirs, len(tiers)*len(regions)**teams)
		return
	}
	if err := g.run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	perApp := 11
	perRegion := len(g.apps)*perApp + 2 // + Namespace + region ConfigMap
	fmt.Fprintf(os.Stderr, "gen: wrote %d files under %s: %d bases, 1 env layer, %d tier overlays, %d region overlays; expected %d resources from all/\n",
		g.files, *out, len(g.apps), len(tiers), len(tiers)*len(regions), perRegion*len(tiers)*len(regions))
}

func (g *gen) makeApps(n int) {
	for i := 0; i < n; i++ {
		role := roles[g.rng.IntN(len(roles))]
		tl := "backend"
		if role == "web" || role == "gateway" {
			tl = "frontend"
		}
		team := g.rng.IntN(6)
		name := fmt.Sprintf("app-%02d", i)
		g.apps = append(g.apps, app{
			name:      name,
			role:      role,
			tierLabel: tl,
			team:      team,
			image:     fmt.Sprintf("registry.example.com/team-%d/%s", team, name),
			tag:       fmt.Sprintf("1.%d.%d", g.rng.IntN(20), g.rng.IntN(10)),
			port:      8000 + g.rng.IntN(1000),
			replicas:  1 + g.rng.IntN(4),
			cpu:       50 * (1 + g.rng.IntN(8)),
			memMi:     64 * (1 + g.rng.IntN(16)),
			storageGi: 1 + g.rng.IntN(50),
			neighbor:  fmt.Sprintf("app-%02d", (i+1)%n),
		})
	}
}

func (g *gen) write(rel, content string) error {
	p := filepath.Join(g.out, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	g.files++
	return os.WriteFile(p, []byte(content), 0o644)
}

// pick returns k distinct apps chosen by the generator's rng, in app order.
func (g *gen) pick(k int) []app {
	if k > len(g.apps) {
		k = len(g.apps)
	}
	idx := g.rng.Perm(len(g.apps))[:k]
	chosen := make([]bool, len(g.apps))
	for _, i := range idx {
		chosen[i] = true
	}
	var r []app
	for i, a := range g.apps {
		if chosen[i] {
			r = append(r, a)
		}
	}
	return r
}

func (g *gen) run() error {
	for _, a := range g.apps {
		if err := g.base(a); err != nil {
			return err
		}
	}
	if err := g.envLayer(); err != nil {
		return err
	}
	var all []string
	for ti, t := range tiers {
		if err := g.tierOverlay(ti, t); err != nil {
			return err
		}
		for _, r := range regions {
			if err := g.regionOverlay(ti, t, r); err != nil {
				return err
			}
			all = append(all, "../regions/"+t.name+"-"+r)
		}
	}
	var b strings.Builder
	b.WriteString(kustHeader)
	b.WriteString("resources:\n")
	for _, r := range all {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	return g.write("all/kustomization.yaml", b.String())
}

const kustHeader = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"

func (g *gen) base(a app) error {
	dir := "bases/" + a.name + "/"
	k := kustHeader + fmt.Sprintf(`commonLabels:
  app.kubernetes.io/name: %[1]s
  app.kubernetes.io/component: %[2]s
resources:
- deployment.yaml
- service.yaml
- rbac.yaml
- pvc.yaml
- hpa.yaml
- ingress.yaml
- pdb.yaml
configMapGenerator:
- name: %[1]s-config
  literals:
  - LOG_LEVEL=info
  - LISTEN_PORT=%[3]d
  - UPSTREAM=%[4]s
  files:
  - config/app.properties
  - settings.json=config/settings.json
  envs:
  - config/app.env
secretGenerator:
- name: %[1]s-secret
  type: Opaque
  literals:
  - username=%[1]s
  - password=%[5]s
  - api-token=%[6]s
generatorOptions:
  labels:
    app.kubernetes.io/part-of: krm-bench
`, a.name, a.role, a.port, a.neighbor, g.token(16), g.token(32))
	files := map[string]string{
		"kustomization.yaml": k,
		"deployment.yaml":    g.deployment(a),
		"service.yaml":       service(a),
		"rbac.yaml":          rbac(a),
		"pvc.yaml":           pvc(a),
		"hpa.yaml":           hpa(a),
		"ingress.yaml":       ingress(a),
		"pdb.yaml":           pdb(a),
		"config/app.properties": fmt.Sprintf(`# %[1]s application properties
server.port=%[2]d
server.shutdown=graceful
cache.size=%[3]d
cache.ttl.seconds=%[4]d
upstream.url=http://%[5]s:80/
feature.flags=%[6]s
`, a.name, a.port, 128*(1+g.rng.IntN(32)), 30*(1+g.rng.IntN(20)), a.neighbor, g.flags()),
		"config/settings.json": fmt.Sprintf(`{
  "name": %q,
  "role": %q,
  "workers": %d,
  "timeouts": {"read": "%ds", "write": "%ds"}
}
`, a.name, a.role, 1+g.rng.IntN(16), 1+g.rng.IntN(30), 1+g.rng.IntN(30)),
		"config/app.env": fmt.Sprintf(`# environment for %s
APP_NAME=%s
APP_ROLE=%s
GOMAXPROCS=%d
MAX_CONNECTIONS=%d
`, a.name, a.name, a.role, 1+g.rng.IntN(8), 10*(1+g.rng.IntN(50))),
	}
	for _, f := range []string{"kustomization.yaml", "deployment.yaml", "service.yaml", "rbac.yaml", "pvc.yaml",
		"hpa.yaml", "ingress.yaml", "pdb.yaml", "config/app.properties", "config/settings.json", "config/app.env"} {
		if err := g.write(dir+f, files[f]); err != nil {
			return err
		}
	}
	return nil
}

func (g *gen) token(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(b)
}

func (g *gen) flags() string {
	all := []string{"fast-path", "new-ui", "batch-writes", "tracing", "compression", "retries"}
	var on []string
	for _, f := range all {
		if g.rng.IntN(2) == 0 {
			on = append(on, f)
		}
	}
	return strings.Join(on, ",")
}

func (g *gen) deployment(a app) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  labels:
    tier: %[2]s
    role: %[3]s
spec:
  replicas: %[4]d
  selector:
    matchLabels:
      component: %[1]s
  template:
    metadata:
      labels:
        component: %[1]s
        tier: %[2]s
    spec:
      serviceAccountName: %[1]s
      securityContext:
        runAsNonRoot: true
        fsGroup: 2000
      containers:
      - name: main
        image: %[5]s:%[6]s
        args:
        - --config=/etc/app/app.properties
        - --port=%[7]d
        ports:
        - name: http
          containerPort: %[7]d
        envFrom:
        - configMapRef:
            name: %[1]s-config
        env:
        - name: DB_USER
          valueFrom:
            secretKeyRef:
              name: %[1]s-secret
              key: username
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: %[1]s-secret
              key: password
        - name: UPSTREAM_LOG_LEVEL
          valueFrom:
            configMapKeyRef:
              name: %[8]s-config
              key: LOG_LEVEL
        - name: POD_NAME
          valueFrom:
            fieldRef:
              fieldPath: metadata.name
        readinessProbe:
          httpGet:
            path: /healthz
            port: http
          periodSeconds: %[9]d
        resources:
          requests:
            cpu: %[10]dm
            memory: %[11]dMi
          limits:
            memory: %[12]dMi
        volumeMounts:
        - name: data
          mountPath: /data
        - name: config
          mountPath: /etc/app
        - name: secret
          mountPath: /etc/secret
          readOnly: true
      volumes:
      - name: data
        persistentVolumeClaim:
          claimName: %[1]s-data
      - name: config
        configMap:
          name: %[1]s-config
      - name: secret
        secret:
          secretName: %[1]s-secret
`, a.name, a.tierLabel, a.role, a.replicas, a.image, a.tag, a.port, a.neighbor,
		5+g.rng.IntN(10), a.cpu, a.memMi, 2*a.memMi)
}

func service(a app) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: %[1]s
  labels:
    tier: %[2]s
spec:
  type: ClusterIP
  selector:
    component: %[1]s
  ports:
  - name: http
    port: 80
    targetPort: http
    protocol: TCP
`, a.name, a.tierLabel)
}

func rbac(a app) string {
	return fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: %[1]s
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: %[1]s-reader
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  resourceNames:
  - %[1]s-config
  verbs:
  - get
  - watch
- apiGroups:
  - ""
  resources:
  - secrets
  resourceNames:
  - %[1]s-secret
  verbs:
  - get
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: %[1]s-reader
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: %[1]s-reader
subjects:
- kind: ServiceAccount
  name: %[1]s
`, a.name)
}

func pvc(a app) string {
	return fmt.Sprintf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: %s-data
spec:
  accessModes:
  - ReadWriteOnce
  storageClassName: standard
  resources:
    requests:
      storage: %dGi
`, a.name, a.storageGi)
}

func hpa(a app) string {
	return fmt.Sprintf(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: %[1]s
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: %[1]s
  minReplicas: %[2]d
  maxReplicas: %[3]d
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 75
`, a.name, a.replicas, 4*a.replicas)
}

func ingress(a app) string {
	return fmt.Sprintf(`apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: %[1]s
  annotations:
    nginx.ingress.kubernetes.io/proxy-body-size: 8m
spec:
  ingressClassName: nginx
  tls:
  - hosts:
    - %[1]s.example.com
    secretName: %[1]s-tls
  rules:
  - host: %[1]s.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: %[1]s
            port:
              name: http
      - path: /upstream
        pathType: Prefix
        backend:
          service:
            name: %[2]s
            port:
              number: 80
`, a.name, a.neighbor)
}

func pdb(a app) string {
	return fmt.Sprintf(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: %[1]s
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      component: %[1]s
`, a.name)
}

// envLayer writes layers/env, the layer every tier overlay builds on.
func (g *gen) envLayer() error {
	var b strings.Builder
	b.WriteString(kustHeader)
	b.WriteString("resources:\n")
	for _, a := range g.apps {
		fmt.Fprintf(&b, "- ../../bases/%s\n", a.name)
	}
	b.WriteString(`commonLabels:
  app.kubernetes.io/managed-by: krm-bench
commonAnnotations:
  bench.example.com/owner: platform-team
  bench.example.com/layer: env
images:
`)
	// Move a subset of images to a mirror registry.
	for _, a := range g.pick(len(g.apps) / 3) {
		fmt.Fprintf(&b, "- name: %s\n  newName: mirror.example.com/team-%d/%s\n", a.image, a.team, a.name)
	}
	b.WriteString(`- name: registry.example.com/infra/log-shipper
  newTag: 2.3.1
patches:
- path: patches/sidecar.yaml
  target:
    kind: Deployment
- path: patches/frontend-probes.yaml
  target:
    kind: Deployment
    labelSelector: tier=frontend
- patch: |-
    - op: add
      path: /spec/revisionHistoryLimit
      value: 5
    - op: add
      path: /spec/template/spec/terminationGracePeriodSeconds
      value: 45
  target:
    group: apps
    version: v1
    kind: Deployment
    labelSelector: tier=backend
- path: patches/service-annotations.yaml
  target:
    version: v1
    kind: Service
- patch: |-
    apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata:
      name: any
    spec:
      maxUnavailable: null
      minAvailable: 1
  target:
    kind: PodDisruptionBudget
    name: app-[0-9]*[02468]
`)
	if err := g.write("layers/env/kustomization.yaml", b.String()); err != nil {
		return err
	}
	if err := g.write("layers/env/patches/sidecar.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: any
spec:
  template:
    metadata:
      annotations:
        logging.example.com/enabled: "true"
    spec:
      containers:
      - name: log-shipper
        image: registry.example.com/infra/log-shipper:2.0.0
        args:
        - --source=/var/log/app
        - --format=json
        resources:
          requests:
            cpu: 10m
            memory: 32Mi
        volumeMounts:
        - name: logs
          mountPath: /var/log/app
      volumes:
      - name: logs
        emptyDir: {}
`); err != nil {
		return err
	}
	if err := g.write("layers/env/patches/frontend-probes.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: any
spec:
  template:
    spec:
      containers:
      - name: main
        livenessProbe:
          httpGet:
            path: /livez
            port: http
          initialDelaySeconds: 10
`); err != nil {
		return err
	}
	return g.write("layers/env/patches/service-annotations.yaml", `- op: add
  path: /metadata/annotations
  value:
    prometheus.io/scrape: "true"
    prometheus.io/port: "9090"
`)
}

func (g *gen) tierOverlay(ti int, t tier) error {
	dir := "envs/" + t.name + "/"
	var b strings.Builder
	b.WriteString(kustHeader)
	fmt.Fprintf(&b, `resources:
- ../../layers/env
namePrefix: %s
commonLabels:
  env: %s
commonAnnotations:
  bench.example.com/tier: %s
images:
`, t.prefix, t.name, t.name)
	for _, a := range g.apps {
		fmt.Fprintf(&b, "- name: %s\n  newTag: %s-%s.%d\n", a.image, a.tag, t.name, g.rng.IntN(100))
	}
	b.WriteString("replicas:\n")
	for _, a := range g.pick(len(g.apps) / 2) {
		fmt.Fprintf(&b, "- name: %s\n  count: %d\n", a.name, 1+ti*2+g.rng.IntN(3))
	}
	b.WriteString("patches:\n")
	// SMP by path, no target: the patch names its Deployment.
	smp := g.pick(len(g.apps) / 4)
	for _, a := range smp {
		fmt.Fprintf(&b, "- path: patches/%s-resources.yaml\n", a.name)
	}
	// SMP inline, target by name.
	for _, a := range g.pick(len(g.apps) / 8) {
		fmt.Fprintf(&b, `- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: %[1]s
    spec:
      strategy:
        type: RollingUpdate
        rollingUpdate:
          maxSurge: %[2]d
          maxUnavailable: 0
  target:
    kind: Deployment
    name: %[1]s
`, a.name, 1+g.rng.IntN(3))
	}
	// JSON6902 by path, target by kind.
	fmt.Fprintf(&b, `- path: patches/hpa-behavior.yaml
  target:
    group: autoscaling
    version: v2
    kind: HorizontalPodAutoscaler
`)
	// JSON6902 inline, target by kind + labelSelector.
	fmt.Fprintf(&b, `- patch: |-
    - op: replace
      path: /spec/type
      value: %s
  target:
    kind: Service
    labelSelector: tier=frontend
`, []string{"ClusterIP", "NodePort", "LoadBalancer"}[ti])
	// JSON6902 inline, target by kind + name.
	for _, a := range g.pick(len(g.apps) / 8) {
		fmt.Fprintf(&b, `- patch: |-
    - op: replace
      path: /spec/resources/requests/storage
      value: %dGi
  target:
    kind: PersistentVolumeClaim
    name: %s-data
`, a.storageGi*(ti+1)*2, a.name)
	}
	b.WriteString("configMapGenerator:\n")
	for _, a := range g.pick(len(g.apps) / 4) {
		fmt.Fprintf(&b, `- name: %s-config
  behavior: merge
  literals:
  - LOG_LEVEL=%s
  - TIER=%s
`, a.name, []string{"debug", "info", "warn"}[ti], t.name)
	}
	if err := g.write(dir+"kustomization.yaml", b.String()); err != nil {
		return err
	}
	for _, a := range smp {
		if err := g.write(dir+"patches/"+a.name+"-resources.yaml", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %s
spec:
  template:
    spec:
      containers:
      - name: main
        resources:
          requests:
            cpu: %dm
            memory: %dMi
          limits:
            memory: %dMi
`, a.name, a.cpu*(ti+1), a.memMi*(ti+1), 2*a.memMi*(ti+1))); err != nil {
			return err
		}
	}
	return g.write(dir+"patches/hpa-behavior.yaml", fmt.Sprintf(`- op: add
  path: /spec/behavior
  value:
    scaleDown:
      stabilizationWindowSeconds: %d
- op: replace
  path: /spec/metrics/0/resource/target/averageUtilization
  value: %d
`, 60*(ti+1), 60+10*ti))
}

func (g *gen) regionOverlay(ti int, t tier, r string) error {
	ns := t.name + "-" + r
	dir := "regions/" + ns + "/"
	var b strings.Builder
	b.WriteString(kustHeader)
	fmt.Fprintf(&b, `resources:
- ../../envs/%[1]s
- namespace.yaml
namespace: %[2]s
nameSuffix: -%[3]s
labels:
- pairs:
    topology.example.com/region: %[3]s
  includeSelectors: false
commonAnnotations:
  bench.example.com/region: %[3]s
`, t.name, ns, r)
	b.WriteString("replicas:\n")
	for _, a := range g.pick(len(g.apps) / 10) {
		fmt.Fprintf(&b, "- name: %s%s\n  count: %d\n", t.prefix, a.name, 2+ti+g.rng.IntN(4))
	}
	b.WriteString(`patches:
- patch: |-
    - op: add
      path: /metadata/annotations/cert-manager.io~1cluster-issuer
      value: letsencrypt-` + r + `
  target:
    kind: Ingress
`)
	for _, a := range g.pick(len(g.apps) / 8) {
		fmt.Fprintf(&b, `- patch: |-
    - op: replace
      path: /spec/rules/0/host
      value: %[1]s.%[2]s.%[3]s.example.com
    - op: replace
      path: /spec/tls/0/hosts/0
      value: %[1]s.%[2]s.%[3]s.example.com
  target:
    kind: Ingress
    name: %[4]s%[1]s
`, a.name, r, t.name, t.prefix)
	}
	b.WriteString(`- path: patches/topology.yaml
  target:
    kind: Deployment
    labelSelector: tier=frontend
configMapGenerator:
- name: region-config
  literals:
  - REGION=` + r + `
  - TIER=` + t.name + `
`)
	for _, a := range g.pick(len(g.apps) / 10) {
		fmt.Fprintf(&b, `- name: %s%s-config
  behavior: merge
  literals:
  - REGION=%s
`, t.prefix, a.name, r)
	}
	if err := g.write(dir+"kustomization.yaml", b.String()); err != nil {
		return err
	}
	if err := g.write(dir+"namespace.yaml", fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: %s
  labels:
    tier: %s
`, ns, t.name)); err != nil {
		return err
	}
	return g.write(dir+"patches/topology.yaml", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: any
spec:
  template:
    spec:
      nodeSelector:
        topology.kubernetes.io/region: %s
      tolerations:
      - key: dedicated
        operator: Equal
        value: %s
        effect: NoSchedule
`, r, t.name))
}
