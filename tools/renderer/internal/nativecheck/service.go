package nativecheck

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// servicePortKey is the (protocol, port) key of core/validation.validateService's duplicate
// check, printed as the server prints its core.ServicePort (JSON of its Go fields).
type servicePortKey struct {
	Name        string
	Protocol    string
	AppProtocol *string
	Port        int32
	TargetPort  int
	NodePort    int32
}

// service mirrors core/validation.validateService's rules on ports: ports are required but
// for a headless (clusterIP None) or ExternalName Service; with several, each has a name (a
// DNS label, unique); port and targetPort (defaulted to port) in range or a port name;
// nodePort not with type ClusterIP; no two ports alike (protocol, port). Also an
// ExternalName's externalName and the selector's labels.
func (c *checker) service(obj map[string]any) {
	spec := mapping(obj["spec"])
	if spec == nil {
		return
	}
	fld := field.NewPath("spec")
	typ := text(spec["type"])
	if typ == "" {
		typ = "ClusterIP"
	}
	headless := text(spec["clusterIP"]) == "None"
	if ips := list(spec["clusterIPs"]); len(ips) == 1 && text(ips[0]) == "None" {
		headless = true
	}
	ports := list(spec["ports"])
	if len(ports) == 0 && !headless && typ != "ExternalName" {
		c.add(field.Required(fld.Child("ports"), ""))
	}
	if typ == "ExternalName" {
		if cname := strings.TrimSuffix(text(spec["externalName"]), "."); cname != "" {
			for _, msg := range validation.IsDNS1123Subdomain(cname) {
				c.add(field.Invalid(fld.Child("externalName"), cname, msg))
			}
		} else {
			c.add(field.Required(fld.Child("externalName"), ""))
		}
	}
	names := map[string]bool{}
	seen := map[servicePortKey]bool{}
	for i, port := range ports {
		port := mapping(port)
		if port == nil {
			continue
		}
		p := fld.Child("ports").Index(i)
		c.servicePort(port, len(ports) > 1, names, p)
		if typ == "ClusterIP" {
			if n, ok := integer(port["nodePort"]); ok && n != 0 {
				c.add(field.Forbidden(p.Child("nodePort"), "may not be used when `type` is 'ClusterIP'"))
			}
		}
		proto := text(port["protocol"])
		if proto == "" {
			proto = "TCP"
		}
		n, _ := integer(port["port"])
		key := servicePortKey{Protocol: proto, Port: int32(n)}
		if seen[key] {
			c.add(field.Duplicate(p, key))
		}
		seen[key] = true
	}
	if sel := mapping(spec["selector"]); sel != nil {
		c.labels(stringMap(sel), fld.Child("selector"))
	}
}

// servicePort mirrors core/validation.validateServicePort.
func (c *checker) servicePort(port map[string]any, requireName bool, names map[string]bool, fld *field.Path) {
	name := text(port["name"])
	switch {
	case requireName && name == "":
		c.add(field.Required(fld.Child("name"), ""))
	case name != "":
		c.dns1123Label(name, fld.Child("name"))
		if names[name] {
			c.add(field.Duplicate(fld.Child("name"), name))
		} else {
			names[name] = true
		}
	}
	n, ok := integer(port["port"])
	if ok {
		for _, msg := range validation.IsValidPortNum(int(n)) {
			c.add(field.Invalid(fld.Child("port"), int32(n), msg))
		}
	}
	if pr, ok := port["protocol"].(string); ok && !supportedProtocol(pr) {
		c.add(field.NotSupported(fld.Child("protocol"), pr, supportedPortProtocols))
	}
	// ValidatePortNumOrName; an absent or 0 targetPort is defaulted to port.
	if tp := port["targetPort"]; tp != 0.0 {
		c.portNumOrName(tp, fld.Child("targetPort"))
	}
	if ap, ok := port["appProtocol"].(string); ok {
		for _, msg := range c.is(qualifiedName, ap) {
			c.add(field.Invalid(fld.Child("appProtocol"), ap, msg))
		}
	}
}
