package smpatch_test

import (
	"math/rand"
	"strconv"
	"strings"
)

// gen writes random Deployments and strategic merge patches of them as
// YAML text: lists kyaml merges by one key (containers, env, volumes,
// volumeMounts) and by two (ports), lists it replaces (args, tolerations),
// maps without a schema, nulls, YAML 1.1 strings (yes, on, 0755, 1e3),
// empty maps and lists, comments, anchors and aliases, and in patches
// directives ($patch, $setElementOrder, $retainKeys).
type gen struct {
	rng *rand.Rand
	b   strings.Builder
}

func newGen(seed int64) *gen { return &gen{rng: rand.New(rand.NewSource(seed))} }

// texts are scalars as written: plain, quoted, tagged, null.
var texts = []string{
	"web", "app-00", "nginx:1.2.3", "registry.example.com/team/app:1.0-dev.1", "a:b", "x-y", `"quoted"`, "'single'",
	"yes", `"yes"`, "on", "Off", "y", "n", "true", "0755", `"0755"`, "1e3", "1.5", "10", "2001-12-14",
	"~", "null", "", `"a: b"`, "x y", "!!str 12", `"#c"`,
}

var keys = []string{"a", "b", "c", "yes", "on", "x-y", "name", "value"}

func (g *gen) one(n int) bool { return g.rng.Intn(n) == 0 }

func (g *gen) text() string { return texts[g.rng.Intn(len(texts))] }

// plain is a value with no null or YAML 1.1 trouble, for keys of lists.
func (g *gen) plain(prefix string, n int) string { return prefix + strconv.Itoa(g.rng.Intn(n)) }

// schemaComment is a comment kyaml reads a schema from.
const schemaComment = ` # {"type":"array","x-kubernetes-patch-strategy":"merge","x-kubernetes-patch-merge-key":"name"}`

// line writes one line at depth d, sometimes with a comment.
func (g *gen) line(d int, s string) {
	g.b.WriteString(strings.Repeat("  ", d))
	g.b.WriteString(s)
	switch {
	case g.one(80):
		g.b.WriteString(" # c")
	case g.one(100):
		g.b.WriteString(schemaComment)
	}
	g.b.WriteByte('\n')
}

// scalar writes "key: value".
func (g *gen) scalar(d int, k, v string) {
	if v == "" {
		g.line(d, k+":")
		return
	}
	g.line(d, k+": "+v)
}

// block writes "key:" and the lines of body one level deeper, or an empty
// map or list in flow style if body writes nothing.
func (g *gen) block(d int, k string, list bool, body func(d int)) {
	n := g.b.Len()
	if g.one(50) {
		k += ": &a" + strconv.Itoa(n) // an anchor no alias names
	} else {
		k += ":"
	}
	g.line(d, k)
	head := g.b.String()[n:]
	body(d + 1)
	if g.b.Len() == n+len(head) {
		s := g.b.String()[:n]
		g.b.Reset()
		g.b.WriteString(s)
		if list {
			g.line(d, k+" []")
		} else {
			g.line(d, k+" {}")
		}
	}
}

// item writes a list item whose map body is written by fields.
func (g *gen) item(d int, fields func(d int)) {
	g.line(d, "-")
	fields(d + 1)
}

// randMap writes up to four fields of random values, maps to depth.
func (g *gen) randMap(d, depth int, patch bool) {
	seen := map[string]bool{}
	for n := g.rng.Intn(4); n > 0; n-- {
		k := keys[g.rng.Intn(len(keys))]
		if seen[k] {
			continue
		}
		seen[k] = true
		switch r := g.rng.Intn(12); {
		case depth > 0 && r < 3:
			g.block(d, k, false, func(d int) { g.randMap(d, depth-1, patch) })
		case r == 3:
			g.block(d, k, true, func(d int) {
				for i := g.rng.Intn(3); i > 0; i-- {
					g.line(d, "- "+g.text())
				}
			})
		case depth > 0 && r == 4 && g.one(3):
			// a flow list, its comment on the list node
			var items []string
			for i := g.rng.Intn(3); i > 0; i-- {
				items = append(items, "{name: "+g.plain("n", 3)+", a: "+g.text()+"}")
			}
			g.b.WriteString(strings.Repeat("  ", d) + k + ": [" + strings.Join(items, ", ") + "]" + schemaComment + "\n")
		case depth > 0 && r == 4:
			g.block(d, k, true, func(d int) {
				for i := g.rng.Intn(3); i > 0; i-- {
					g.item(d, func(d int) {
						g.scalar(d, "name", g.plain("n", 3))
						g.randMap(d, depth-1, patch)
					})
				}
			})
		default:
			g.scalar(d, k, g.text())
		}
	}
	if patch && g.one(10) {
		g.scalar(d, "$patch", []string{"replace", "delete", "merge"}[g.rng.Intn(3)])
	}
}

func (g *gen) labels(d int, k string) {
	g.block(d, k, false, func(d int) {
		g.scalar(d, "app", g.text())
		if g.one(2) {
			g.scalar(d, "tier", g.text())
		}
	})
}

// container writes a container of a Deployment, or of a patch: then a
// random part of one, maybe with nulls and directives.
func (g *gen) container(d int, patch bool) {
	some := func() bool { return !patch || g.one(3) }
	g.item(d, func(d int) {
		if !patch || !g.one(20) {
			g.scalar(d, "name", g.plain("c", 3))
		}
		if some() {
			g.scalar(d, "image", g.text())
		}
		if some() && g.one(2) {
			g.block(d, "args", true, func(d int) {
				for i := g.rng.Intn(3); i > 0; i-- {
					g.line(d, "- "+g.text())
				}
			})
		}
		if some() && g.one(2) {
			g.block(d, "env", true, func(d int) {
				for i := g.rng.Intn(4); i > 0; i-- {
					g.item(d, func(d int) {
						if !g.one(25) {
							g.scalar(d, "name", g.plain("E", 4))
						}
						if g.one(3) {
							g.block(d, "valueFrom", false, func(d int) {
								g.block(d, "fieldRef", false, func(d int) { g.scalar(d, "fieldPath", g.text()) })
							})
						} else {
							g.scalar(d, "value", g.text())
						}
						if patch && g.one(10) {
							g.scalar(d, "$patch", "delete")
						}
					})
				}
			})
		}
		if some() && g.one(2) {
			g.block(d, "ports", true, func(d int) {
				for i := g.rng.Intn(3); i > 0; i-- {
					g.item(d, func(d int) {
						if !g.one(10) {
							g.scalar(d, "containerPort", g.plain("80", 3))
						}
						if g.one(2) {
							g.scalar(d, "protocol", []string{"TCP", "UDP"}[g.rng.Intn(2)])
						}
						if g.one(2) {
							g.scalar(d, "name", g.text())
						}
					})
				}
			})
		}
		if some() && g.one(2) {
			g.block(d, "volumeMounts", true, func(d int) {
				for i := g.rng.Intn(3); i > 0; i-- {
					g.item(d, func(d int) {
						g.scalar(d, "name", g.plain("v", 3))
						g.scalar(d, "mountPath", g.plain("/m", 3))
						if g.one(3) {
							g.scalar(d, "readOnly", g.text())
						}
					})
				}
			})
		}
		if some() && g.one(2) {
			g.block(d, "resources", false, func(d int) {
				g.block(d, "requests", false, func(d int) { g.scalar(d, "cpu", g.text()) })
				if g.one(2) {
					g.block(d, "limits", false, func(d int) { g.randMap(d, 0, patch) })
				}
			})
		}
		if some() && g.one(3) {
			g.block(d, "readinessProbe", false, func(d int) {
				g.block(d, "httpGet", false, func(d int) {
					g.scalar(d, "path", "/healthz")
					g.scalar(d, "port", g.text())
				})
				g.scalar(d, "periodSeconds", "10")
			})
		}
		if some() && g.one(4) {
			g.block(d, "extra", false, func(d int) { g.randMap(d, 2, patch) })
		}
		if patch && g.one(12) {
			g.scalar(d, "$patch", []string{"delete", "replace"}[g.rng.Intn(2)])
		}
	})
}

func (g *gen) podSpec(d int, patch bool) {
	some := func() bool { return !patch || g.one(3) }
	if !patch || g.one(2) {
		g.block(d, "containers", true, func(d int) {
			for i := g.rng.Intn(3) + 1; i > 0; i-- {
				g.container(d, patch)
			}
		})
	}
	if patch && g.one(15) {
		g.block(d, "$setElementOrder/containers", true, func(d int) {
			g.item(d, func(d int) { g.scalar(d, "name", g.plain("c", 3)) })
		})
	}
	if some() && g.one(2) {
		g.block(d, "volumes", true, func(d int) {
			for i := g.rng.Intn(3); i > 0; i-- {
				g.item(d, func(d int) {
					g.scalar(d, "name", g.plain("v", 3))
					if g.one(2) {
						g.block(d, "configMap", false, func(d int) { g.scalar(d, "name", g.text()) })
					} else {
						g.line(d, "emptyDir: {}")
					}
				})
			}
		})
	}
	if some() && g.one(3) {
		g.block(d, "tolerations", true, func(d int) {
			g.item(d, func(d int) {
				g.scalar(d, "key", g.text())
				g.scalar(d, "operator", "Exists")
			})
		})
	}
	if some() && g.one(3) {
		g.block(d, "nodeSelector", false, func(d int) { g.randMap(d, 0, patch) })
	}
	if some() && g.one(3) {
		g.block(d, "securityContext", false, func(d int) {
			g.scalar(d, "runAsNonRoot", g.text())
			g.scalar(d, "fsGroup", "2000")
		})
	}
	if some() && g.one(3) {
		g.scalar(d, "serviceAccountName", g.text())
	}
}

// embedded writes a Pod inside a field kyaml has no schema for: the walker
// looks the Pod's schema up by its apiVersion and kind.
func (g *gen) embedded(d int, patch bool) {
	g.block(d, "pod", false, func(d int) {
		g.line(d, "apiVersion: v1")
		g.line(d, "kind: Pod")
		g.block(d, "spec", false, func(d int) {
			if !patch || g.one(2) {
				g.podSpec(d, patch)
			}
			if g.one(2) {
				g.scalar(d, "hostname", g.text())
			}
		})
	})
}

// object writes a Deployment (or, at times, a kind without a schema) or a
// patch of one.
func (g *gen) object(patch bool) string {
	g.b.Reset()
	some := func() bool { return !patch || g.one(2) }
	if g.one(12) {
		g.line(0, "apiVersion: example.com/v1")
		g.line(0, "kind: Widget")
	} else {
		g.line(0, "apiVersion: apps/v1")
		g.line(0, "kind: Deployment")
	}
	anchor := !patch && g.one(15)
	g.block(0, "metadata", false, func(d int) {
		g.scalar(d, "name", "web")
		if some() {
			if anchor {
				g.line(d, "labels: &l")
				g.scalar(d+1, "app", g.text())
			} else {
				g.labels(d, "labels")
			}
		}
		if some() && g.one(2) {
			g.block(d, "annotations", false, func(d int) { g.randMap(d, 0, patch) })
		}
		if some() && g.one(4) {
			g.block(d, "finalizers", true, func(d int) { g.line(d, "- "+g.plain("f", 3)) })
		}
		if !patch && g.one(3) {
			g.scalar(d, "creationTimestamp", "null")
		}
	})
	g.block(0, "spec", false, func(d int) {
		if some() {
			g.scalar(d, "replicas", g.text())
		}
		if some() && g.one(2) {
			g.block(d, "selector", false, func(d int) { g.labels(d, "matchLabels") })
		}
		if some() && g.one(2) {
			g.block(d, "strategy", false, func(d int) {
				g.scalar(d, "type", "RollingUpdate")
				g.block(d, "rollingUpdate", false, func(d int) { g.scalar(d, "maxSurge", g.text()) })
				if patch && g.one(8) {
					g.block(d, "$retainKeys", true, func(d int) { g.line(d, "- type") })
				}
			})
		}
		if !patch || g.one(4) {
			g.block(d, "template", false, func(d int) {
				if some() {
					g.block(d, "metadata", false, func(d int) {
						if anchor {
							g.line(d, "labels: *l")
						} else if some() {
							g.labels(d, "labels")
						}
						if !patch && g.one(2) {
							g.scalar(d, "creationTimestamp", g.text())
						}
						if some() && g.one(3) {
							g.block(d, "finalizers", true, func(d int) {
								for i := g.rng.Intn(3); i > 0; i-- {
									g.line(d, "- "+g.plain("f", 2))
								}
							})
						}
					})
				}
				g.block(d, "spec", false, func(d int) { g.podSpec(d, patch) })
			})
		}
		if some() && g.one(3) {
			g.block(d, "other", false, func(d int) {
				g.randMap(d, 3, patch)
				if g.one(3) {
					g.embedded(d, patch)
				}
			})
		}
		if patch && g.one(30) {
			g.scalar(d, "$patch", "replace")
		}
	})
	return g.b.String()
}

func (g *gen) dest() string  { return g.object(false) }
func (g *gen) patch() string { return g.object(true) }
