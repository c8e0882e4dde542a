package nativecheck

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
)

// podTemplate mirrors core/validation.ValidatePodTemplateSpec: the template's labels and
// annotations (at TEMPLATE.labels, as the server names them), then its pod spec.
func (c *checker) podTemplate(tmpl map[string]any, fld *field.Path) {
	c.podTemplateWith(tmpl, fld, nil)
}

// podTemplateWith is podTemplate with volumes the controller adds (a StatefulSet's claims).
func (c *checker) podTemplateWith(tmpl map[string]any, fld *field.Path, extraVolumes []string) {
	if tmpl == nil {
		return
	}
	meta := mapping(tmpl["metadata"])
	c.labels(stringMap(meta["labels"]), fld.Child("labels"))
	c.annotations(stringMap(meta["annotations"]), fld.Child("annotations"))
	c.podSpecWith(mapping(tmpl["spec"]), fld.Child("spec"), extraVolumes)
}

func (c *checker) podSpec(spec map[string]any, fld *field.Path) { c.podSpecWith(spec, fld, nil) }

// podSpecWith mirrors core/validation.ValidatePodSpec: volumes, then containers and init
// containers (names unique across both).
func (c *checker) podSpecWith(spec map[string]any, fld *field.Path, extraVolumes []string) {
	if spec == nil {
		return
	}
	vols := c.volumes(list(spec["volumes"]), fld.Child("volumes"))
	for _, v := range extraVolumes {
		vols[v] = true
	}
	if l, ok := spec["containers"].([]any); ok && len(l) == 0 {
		c.add(field.Required(fld.Child("containers"), "")) // validateContainers
	}
	// validateContainers and validateInitContainers: names are unique among the regular
	// and init containers.
	names := map[string]bool{}
	hostPorts := map[string]bool{} // the regular containers' together
	for _, group := range []string{"containers", "initContainers"} {
		for i, ctr := range list(spec[group]) {
			p := fld.Child(group).Index(i)
			ctr := mapping(ctr)
			c.container(ctr, vols, p)
			n := text(ctr["name"])
			if names[n] {
				c.add(field.Duplicate(p.Child("name"), n))
			} else if n != "" || group == "containers" {
				names[n] = true
			}
			portsAt := p.Child("ports")
			if group == "initContainers" {
				// Each init container alone (they run one by one), as a list of one: the
				// server names it initContainers[0] whatever its index.
				hostPorts = map[string]bool{}
				portsAt = fld.Child(group).Index(0).Child("ports")
			}
			c.hostPorts(list(ctr["ports"]), hostPorts, portsAt)
		}
	}
}

// hostPorts mirrors core/validation.AccumulateUniqueHostPorts (checkHostPortConflicts): no
// two ports on one protocol, host IP and host port.
func (c *checker) hostPorts(ports []any, seen map[string]bool, fld *field.Path) {
	for i, port := range ports {
		port := mapping(port)
		n, ok := integer(port["hostPort"])
		if !ok || n == 0 {
			continue
		}
		proto := text(port["protocol"])
		if proto == "" {
			proto = "TCP"
		}
		key := fmt.Sprintf("%s/%s/%d", proto, text(port["hostIP"]), n)
		if seen[key] {
			c.add(field.Duplicate(fld.Index(i).Child("hostPort"), key))
		}
		seen[key] = true
	}
}

// volumes mirrors core/validation.ValidateVolumes' names: a DNS label, unique; it returns
// the names of the valid volumes (what volume mounts may name).
func (c *checker) volumes(vols []any, fld *field.Path) map[string]bool {
	names := map[string]bool{}
	for i, v := range vols {
		v := mapping(v)
		if v == nil {
			continue
		}
		p := fld.Index(i).Child("name")
		n, ok := v["name"].(string)
		if _, given := v["name"]; given && !ok {
			continue // the schema check's
		}
		before := len(c.errs)
		if n == "" {
			c.add(field.Required(p, ""))
		} else {
			c.dns1123Label(n, p)
		}
		if names[n] {
			c.add(field.Duplicate(p, n))
		}
		if len(c.errs) == before {
			names[n] = true
		}
	}
	return names
}

// dns1123Label mirrors core/validation.ValidateDNS1123Label.
func (c *checker) dns1123Label(v string, fld *field.Path) {
	for _, msg := range c.is(dnsLabel, v) {
		c.add(field.Invalid(fld, v, msg))
	}
}

// container mirrors core/validation.validateContainerCommon: name, image, ports, env,
// volume mounts and resources.
func (c *checker) container(ctr map[string]any, vols map[string]bool, fld *field.Path) {
	if ctr == nil {
		return
	}
	if n := text(ctr["name"]); n == "" {
		c.add(field.Required(fld.Child("name"), ""))
	} else {
		c.dns1123Label(n, fld.Child("name"))
	}
	if text(ctr["image"]) == "" {
		c.add(field.Required(fld.Child("image"), ""))
	}
	c.containerPorts(list(ctr["ports"]), fld.Child("ports"))
	c.env(list(ctr["env"]), fld.Child("env"))
	c.volumeMounts(list(ctr["volumeMounts"]), vols, fld.Child("volumeMounts"))
	c.resources(mapping(ctr["resources"]), fld.Child("resources"))
	c.probes(ctr, fld)
}

// supportedPortProtocols mirrors core/validation's.
var supportedPortProtocols = []string{"SCTP", "TCP", "UDP"}

func supportedProtocol(p string) bool {
	for _, s := range supportedPortProtocols {
		if p == s {
			return true
		}
	}
	return false
}

// containerPorts mirrors core/validation.validateContainerPorts (protocol defaults to TCP).
func (c *checker) containerPorts(ports []any, fld *field.Path) {
	names := map[string]bool{}
	for i, port := range ports {
		port := mapping(port)
		if port == nil {
			continue
		}
		p := fld.Index(i)
		if n := text(port["name"]); n != "" {
			if msgs := c.is(portName, n); len(msgs) > 0 {
				for _, msg := range msgs {
					c.add(field.Invalid(p.Child("name"), n, msg))
				}
			} else if names[n] {
				c.add(field.Duplicate(p.Child("name"), n))
			} else {
				names[n] = true
			}
		}
		if n, ok := integer(port["containerPort"]); ok {
			if n == 0 {
				c.add(field.Required(p.Child("containerPort"), ""))
			} else {
				for _, msg := range validation.IsValidPortNum(int(n)) {
					c.add(field.Invalid(p.Child("containerPort"), int32(n), msg))
				}
			}
		}
		if n, ok := integer(port["hostPort"]); ok && n != 0 {
			for _, msg := range validation.IsValidPortNum(int(n)) {
				c.add(field.Invalid(p.Child("hostPort"), int32(n), msg))
			}
		}
		if pr, ok := port["protocol"].(string); ok && !supportedProtocol(pr) {
			c.add(field.NotSupported(p.Child("protocol"), pr, supportedPortProtocols))
		}
	}
}

// env mirrors core/validation.ValidateEnv with RelaxedEnvironmentVariableValidation (GA
// since 1.34): a name is printable ASCII but '='.
func (c *checker) env(vars []any, fld *field.Path) {
	for i, ev := range vars {
		ev := mapping(ev)
		if ev == nil {
			continue
		}
		p := fld.Index(i).Child("name")
		if n := text(ev["name"]); n == "" {
			if _, ok := ev["name"]; ok { // absent: the schema's Required
				c.add(field.Required(p, ""))
			}
		} else {
			for _, msg := range validation.IsRelaxedEnvVarName(n) {
				c.add(field.Invalid(p, n, msg))
			}
		}
	}
}

// volumeMounts mirrors core/validation.ValidateVolumeMounts: a mount names a volume of the
// pod, and no two mount at one path.
func (c *checker) volumeMounts(mounts []any, vols map[string]bool, fld *field.Path) {
	paths := map[string]bool{}
	for i, m := range mounts {
		m := mapping(m)
		if m == nil {
			continue
		}
		p := fld.Index(i)
		n := text(m["name"])
		if !vols[n] {
			c.add(field.NotFound(p.Child("name"), n))
		}
		mp := text(m["mountPath"])
		if paths[mp] {
			c.add(field.Invalid(p.Child("mountPath"), mp, "must be unique"))
		}
		paths[mp] = true
	}
}

// standardContainerResources mirrors core/helper.IsStandardContainerResourceName (with the
// hugepages- prefix).
var standardContainerResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// overcommitAllowed mirrors core/helper.IsOvercommitAllowed: native resources but huge pages.
func overcommitAllowed(name string) bool {
	native := !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
	return native && !strings.HasPrefix(name, "hugepages-")
}

// resources mirrors core/validation.validateResourceRequirements for containers: resource
// names, non-negative quantities, and each request at most its limit (equal to it for
// resources that cannot be overcommitted, which need a limit). Quantities are compared with
// yamlnode's port of resource.ParseQuantity (linking apimachinery's would add its CBOR
// serializer to every start) and printed as written, where the server prints its canonical
// form (500m for 0.5).
func (c *checker) resources(res map[string]any, fld *field.Path) {
	if res == nil {
		return
	}
	limPath, reqPath := fld.Child("limits"), fld.Child("requests")
	limits := quantities(mapping(res["limits"]))
	requests := quantities(mapping(res["requests"]))
	for _, name := range sortedKeys(limits) {
		c.resourceName(name, limPath.Key(name))
		c.nonNegative(limits[name], limPath.Key(name))
	}
	for _, name := range sortedKeys(requests) {
		q := requests[name]
		c.resourceName(name, reqPath.Key(name))
		c.nonNegative(q, reqPath.Key(name))
		lim, ok := limits[name]
		cmp, _ := yamlnode.CompareQuantity(q, lim)
		switch {
		case ok && cmp != 0 && !overcommitAllowed(name):
			c.add(field.Invalid(reqPath, q, fmt.Sprintf("must be equal to %s limit of %s", name, lim)))
		case ok && cmp > 0:
			c.add(field.Invalid(reqPath, q, fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim)))
		case !ok && !overcommitAllowed(name):
			c.add(field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
	}
}

// quantities are the quantities of a resource list that parse (the schema check reports
// those that do not), trimmed as the server trims them.
func quantities(m map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		var s string
		switch t := v.(type) {
		case string:
			s = strings.TrimSpace(t)
		case float64:
			s = strconv.FormatFloat(t, 'f', -1, 64)
		default:
			continue
		}
		if yamlnode.IsQuantity(s) {
			out[k] = s
		}
	}
	return out
}

// resourceName mirrors core/validation.ValidateContainerResourceName (for names without a
// domain).
func (c *checker) resourceName(name string, fld *field.Path) {
	if !strings.Contains(name, "/") && !standardContainerResources[name] && !strings.HasPrefix(name, "hugepages-") {
		c.add(field.Invalid(fld, name, "must be a standard resource for containers"))
	}
}

// nonNegative mirrors core/validation.ValidateNonnegativeQuantity.
func (c *checker) nonNegative(q string, fld *field.Path) {
	if cmp, _ := yamlnode.CompareQuantity(q, "0"); cmp < 0 {
		c.add(field.Invalid(fld, q, "must be greater than or equal to 0"))
	}
}

// probes mirrors core/validation's probe handlers' ports (ValidatePortNumOrName of
// httpGet and tcpSocket).
func (c *checker) probes(ctr map[string]any, fld *field.Path) {
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		pr := mapping(ctr[probe])
		for _, h := range []string{"httpGet", "tcpSocket"} {
			if hd := mapping(pr[h]); hd != nil {
				c.portNumOrName(hd["port"], fld.Child(probe, h, "port"))
			}
		}
	}
}

// portNumOrName mirrors core/validation.ValidatePortNumOrName.
func (c *checker) portNumOrName(v any, fld *field.Path) {
	switch t := v.(type) {
	case float64:
		if n, ok := integer(t); ok {
			for _, msg := range validation.IsValidPortNum(int(n)) {
				c.add(field.Invalid(fld, int(n), msg))
			}
		}
	case string:
		for _, msg := range c.is(portName, t) {
			c.add(field.Invalid(fld, t, msg))
		}
	}
}
