// Command gatewaygen writes a deterministic YAML stream of Gateway API objects (the v1
// kinds of the standard channel: GatewayClass, Gateway, HTTPRoute) and their Namespaces,
// every one valid under the standard CRDs' schemas and CEL rules, for benchmarking
// validators that run those rules (dev/scripts/bench-validate-cel.sh).
//
// Usage:
//
//	go run ./dev/bench/gatewaygen -out FILE [-namespaces N] [-gateways N] [-routes N] [-seed S]
//
// Each namespace gets -gateways Gateways (an HTTP and an HTTPS listener per hostname) and
// -routes HTTPRoutes attached to them, with the fields the CRDs' rules look at: path matches
// of each type, header and query matches, header modifier filters, weighted backend refs,
// timeouts. With the defaults: 20 namespaces, 100 Gateways, 3000 HTTPRoutes (3121 objects).
// The output depends only on the flags.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

func main() {
	out := flag.String("out", "", "file to write the YAML stream to")
	nns := flag.Int("namespaces", 20, "number of namespaces")
	ngw := flag.Int("gateways", 5, "Gateways per namespace")
	nrt := flag.Int("routes", 150, "HTTPRoutes per namespace")
	seed := flag.Uint64("seed", 1, "seed for the content")
	flag.Parse()
	if *out == "" || *nns < 1 || *ngw < 1 || *nrt < 0 || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: gatewaygen -out FILE [-namespaces N>=1] [-gateways N>=1] [-routes N>=0] [-seed S]")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatewaygen:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	g := &gen{w: w, rng: rand.New(rand.NewPCG(*seed, 0x6761746577617973))}
	n := g.run(*nns, *ngw, *nrt)
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gatewaygen:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "gatewaygen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gatewaygen: wrote %d objects to %s\n", n, *out)
}

type gen struct {
	w   *bufio.Writer
	rng *rand.Rand
}

var (
	pathTypes = []string{"PathPrefix", "Exact", "RegularExpression"}
	methods   = []string{"GET", "POST", "PUT", "DELETE", "PATCH"}
	headers   = []string{"x-tenant", "x-canary", "x-request-class", "x-region"}
)

// run writes the objects and returns how many.
func (g *gen) run(nns, ngw, nrt int) int {
	n := 1
	g.doc(`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: bench
spec:
  controllerName: example.com/gateway-controller
  description: the benchmark's gateways
`)
	for i := 0; i < nns; i++ {
		ns := fmt.Sprintf("team-%02d", i)
		g.doc(fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: %s
  labels:
    team: %q
`, ns, fmt.Sprint(i)))
		n++
		for j := 0; j < ngw; j++ {
			g.gateway(ns, j)
			n++
		}
		for j := 0; j < nrt; j++ {
			g.route(ns, j, ngw)
			n++
		}
	}
	return n
}

func (g *gen) doc(s string) {
	g.w.WriteString("---\n")
	g.w.WriteString(s)
}

func host(ns string, gw int) string { return fmt.Sprintf("gw-%d.%s.example.com", gw, ns) }

func (g *gen) gateway(ns string, j int) {
	h := host(ns, j)
	from := []string{"Same", "All"}[g.rng.IntN(2)]
	g.doc(fmt.Sprintf(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw-%d
  namespace: %s
  labels:
    app.kubernetes.io/part-of: bench
spec:
  gatewayClassName: bench
  listeners:
  - name: http
    protocol: HTTP
    port: 80
    hostname: "*.%s"
    allowedRoutes:
      namespaces:
        from: %s
  - name: https
    protocol: HTTPS
    port: 443
    hostname: "*.%s"
    tls:
      mode: Terminate
      certificateRefs:
      - kind: Secret
        group: ""
        name: gw-%d-cert
    allowedRoutes:
      namespaces:
        from: %s
      kinds:
      - kind: HTTPRoute
`, j, ns, h, from, h, j, from))
}

func (g *gen) route(ns string, j, ngw int) {
	r := g.rng
	gw := r.IntN(ngw)
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: route-%03d
  namespace: %s
  labels:
    app: svc-%03d
spec:
  parentRefs:
  - name: gw-%d
    sectionName: %s
  hostnames:
  - svc-%03d.%s
`, j, ns, j, gw, []string{"http", "https"}[r.IntN(2)], j, host(ns, gw))
	b.WriteString("  rules:\n")
	for k, nrules := 0, 1+r.IntN(4); k < nrules; k++ {
		fmt.Fprintf(&b, "  - name: rule-%d\n    matches:\n", k)
		for m, nm := 0, 1+r.IntN(3); m < nm; m++ {
			pt := pathTypes[r.IntN(len(pathTypes))]
			path := fmt.Sprintf("/api/v%d/r%d", 1+r.IntN(3), m)
			if pt == "RegularExpression" {
				path += "/[a-z0-9]+"
			}
			fmt.Fprintf(&b, "    - path:\n        type: %s\n        value: %s\n", pt, path)
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, "      method: %s\n", methods[r.IntN(len(methods))])
			}
			if r.IntN(3) == 0 {
				fmt.Fprintf(&b, "      headers:\n      - name: %s\n        value: v%d\n", headers[r.IntN(len(headers))], r.IntN(10))
			}
			if r.IntN(4) == 0 {
				fmt.Fprintf(&b, "      queryParams:\n      - type: Exact\n        name: version\n        value: \"%d\"\n", r.IntN(5))
			}
		}
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, `    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        set:
        - name: x-route
          value: route-%03d
        remove:
        - x-debug
`, j)
			if r.IntN(2) == 0 {
				b.WriteString(`    - type: ResponseHeaderModifier
      responseHeaderModifier:
        add:
        - name: x-served-by
          value: bench
`)
			}
		}
		b.WriteString("    backendRefs:\n")
		for k2, nb := 0, 1+r.IntN(2); k2 < nb; k2++ {
			fmt.Fprintf(&b, "    - name: svc-%03d-v%d\n      port: %d\n      weight: %d\n", j, k2, 8000+r.IntN(1000), 1+r.IntN(100))
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, "    timeouts:\n      request: %ds\n      backendRequest: %ds\n", 10+r.IntN(20), 1+r.IntN(10))
		}
	}
	g.doc(b.String())
}
