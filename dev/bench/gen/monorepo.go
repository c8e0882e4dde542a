package main

import (
	"fmt"
	"strings"
)

// The -monorepo layout: a platform monorepo with one kustomization directory per leaf base,
// component, shared layer and deployment (for the Gazelle and Bazel scale benchmark,
// dev/scripts/bench-gazelle.sh):
//
//	bases/app-NN/                 one leaf base per app (as in the default layout)
//	components/{monitoring,debug,netpol,hardening}/
//	                              Components: annotations, patches by target, a generated
//	                              ConfigMap, a NetworkPolicy, labels
//	teams/team-T/                 a shared layer per team: its apps' bases, team labels,
//	                              images
//	envs/<tier>/<region>/team-T/  the deployments (top-level overlays): a team's layer in a
//	                              namespace, with the tier's components and replicas
//
// With -apps 240 -teams 8: 240 + 4 + 8 + 3*3*8 = 324 kustomization directories.

var monorepoComponents = map[string]string{
	"monitoring": kustComponent + `commonAnnotations:
  prometheus.io/scrape: "true"
patches:
- target:
    kind: Deployment
  patch: |-
    - op: add
      path: /spec/template/metadata/annotations
      value:
        prometheus.io/port: "9090"
`,
	"debug": kustComponent + `configMapGenerator:
- name: debug-settings
  literals:
  - LOG_LEVEL=debug
patches:
- target:
    kind: Deployment
  patch: |-
    - op: add
      path: /spec/template/metadata/labels/debug
      value: "on"
`,
	"netpol": kustComponent + `resources:
- default-deny.yaml
`,
	"hardening": kustComponent + `labels:
- pairs:
    security.example.com/profile: restricted
patches:
- target:
    kind: Deployment
  patch: |-
    - op: add
      path: /spec/template/spec/automountServiceAccountToken
      value: false
`,
}

const kustComponent = "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"

const defaultDeny = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: default-deny
spec:
  podSelector: {}
  policyTypes:
  - Ingress
`

// tierComponents are the components each tier's deployments use.
var tierComponents = map[string][]string{
	"dev":     {"monitoring", "debug", "netpol"},
	"staging": {"monitoring", "netpol"},
	"prod":    {"monitoring", "netpol", "hardening"},
}

func (g *gen) monorepo(teams int) (dirs int, err error) {
	for _, a := range g.apps {
		if err := g.base(a); err != nil {
			return 0, err
		}
	}
	dirs = len(g.apps)
	for _, name := range []string{"debug", "hardening", "monitoring", "netpol"} {
		if err := g.write("components/"+name+"/kustomization.yaml", monorepoComponents[name]); err != nil {
			return 0, err
		}
		dirs++
	}
	if err := g.write("components/netpol/default-deny.yaml", defaultDeny); err != nil {
		return 0, err
	}
	members := make([][]app, teams)
	for i, a := range g.apps {
		members[i%teams] = append(members[i%teams], a)
	}
	for t := 0; t < teams; t++ {
		var b strings.Builder
		b.WriteString(kustHeader)
		fmt.Fprintf(&b, "labels:\n- pairs:\n    team: team-%d\nresources:\n", t)
		for _, a := range members[t] {
			fmt.Fprintf(&b, "- ../../bases/%s\n", a.name)
		}
		fmt.Fprintf(&b, "images:\n- name: %s\n  newTag: %s-team%d\n", members[t][0].image, members[t][0].tag, t)
		if err := g.write(fmt.Sprintf("teams/team-%d/kustomization.yaml", t), b.String()); err != nil {
			return 0, err
		}
		dirs++
	}
	for ti, tr := range tiers {
		for _, region := range regions {
			for t := 0; t < teams; t++ {
				var b strings.Builder
				b.WriteString(kustHeader)
				fmt.Fprintf(&b, "namespace: %s-%s-team-%d\n", tr.name, region, t)
				fmt.Fprintf(&b, "commonAnnotations:\n  example.com/region: %s\n", region)
				fmt.Fprintf(&b, "resources:\n- ../../../../teams/team-%d\ncomponents:\n", t)
				for _, c := range tierComponents[tr.name] {
					fmt.Fprintf(&b, "- ../../../../components/%s\n", c)
				}
				fmt.Fprintf(&b, "replicas:\n- name: %s\n  count: %d\n", members[t][0].name, 1+ti*2)
				if err := g.write(fmt.Sprintf("envs/%s/%s/team-%d/kustomization.yaml", tr.name, region, t), b.String()); err != nil {
					return 0, err
				}
				dirs++
			}
		}
	}
	return dirs, nil
}
