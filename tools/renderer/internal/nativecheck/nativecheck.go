// Package nativecheck checks built-in kinds as the API server's per-kind validation does
// (k8s.io/kubernetes v1.37's pkg/apis/*/validation), beyond what their OpenAPI schemas say:
// name formats per kind, label and annotation syntax and sizes, a workload's selector against
// its template's labels, container, port, env, volume and resource rules, a Service's ports,
// ConfigMap and Secret keys. The server's code needs its internal types and k8s.io/kubernetes'
// module (docs/performance.md), so the checks are written again here on the decoded object
// with k8s.io/apimachinery's validation functions, each naming the server function it
// mirrors; the errors are the server's (field path and message).
//
// The object is checked as a create would see it after the server's defaults: a field the
// server defaults (a port's protocol, a Service's targetPort and type, a pod's restartPolicy)
// counts as defaulted when absent. A field of the wrong type is skipped: the schema check
// reports it.
package nativecheck

import (
	"encoding/json"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Checker checks objects; make one with New for a run (not for concurrent use): it keeps the
// answers of the string checks, since the same label keys and names recur in every object.
type Checker struct{ memo map[memoKey][]string }

// New returns a Checker.
func New() *Checker { return &Checker{memo: map[memoKey][]string{}} }

// Check returns the errors of the API server's validation of the built-in object obj (a
// decoded JSON object) on create; nil for a kind it does not know.
func (k *Checker) Check(obj map[string]any) field.ErrorList {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	kc, ok := kinds[group+"/"+kind]
	if !ok {
		return nil
	}
	c := &checker{memo: k.memo}
	c.objectMeta(mapping(obj["metadata"]), kc.name, field.NewPath("metadata"))
	if kc.check != nil {
		kc.check(c, obj)
	}
	return c.errs
}

// Knows reports whether Check checks objects of the kind (group "" for the core group).
func Knows(group, kind string) bool {
	_, ok := kinds[group+"/"+kind]
	return ok
}

// checker gathers the errors of one object.
type checker struct {
	errs field.ErrorList
	memo map[memoKey][]string
}

// The string checks whose answers a Checker keeps, by what they check.
const (
	qualifiedName = iota
	labelValue
	dnsLabel
	portName
)

var memoized = [...]func(string) []string{
	qualifiedName: validation.IsQualifiedName,
	labelValue:    validation.IsValidLabelValue,
	dnsLabel:      validation.IsDNS1123Label,
	portName:      validation.IsValidPortName,
}

type memoKey struct {
	check int
	s     string
}

// maxMemo bounds the answers kept (a few MB at most).
const maxMemo = 1 << 15

// is returns the messages of the string check of s.
func (c *checker) is(check int, s string) []string {
	k := memoKey{check, s}
	if msgs, ok := c.memo[k]; ok {
		return msgs
	}
	msgs := memoized[check](s)
	if len(c.memo) < maxMemo && len(s) <= 256 {
		c.memo[k] = msgs
	}
	return msgs
}

func (c *checker) add(errs ...*field.Error) { c.errs = append(c.errs, errs...) }

// kindChecks is what is checked of a kind: its name's format, and its spec.
type kindChecks struct {
	name  nameFunc
	check func(c *checker, obj map[string]any)
}

// kinds are the built-in kinds checked, by GROUP/KIND, with the name function each one's
// Validate* passes to ValidateObjectMeta (pkg/apis/*/validation).
var kinds = map[string]kindChecks{
	"/Pod":                   {subdomain, func(c *checker, o map[string]any) { c.podSpec(mapping(o["spec"]), field.NewPath("spec")) }},
	"/PodTemplate":           {subdomain, func(c *checker, o map[string]any) { c.podTemplate(mapping(o["template"]), field.NewPath("template")) }},
	"/ReplicationController": {subdomain, (*checker).replicationController},
	"/Service":               {label, (*checker).service}, // RelaxedServiceNameValidation, GA in 1.37
	"/Namespace":             {label, nil},
	"/ConfigMap":             {subdomain, (*checker).configMap},
	"/Secret":                {subdomain, (*checker).secret},
	"/ServiceAccount":        {subdomain, nil},
	"/PersistentVolume":      {subdomain, (*checker).persistentVolume},
	"/PersistentVolumeClaim": {subdomain, (*checker).persistentVolumeClaim},
	"/Endpoints":             {subdomain, nil},
	"/LimitRange":            {subdomain, nil},
	"/ResourceQuota":         {subdomain, nil},
	"/Node":                  {subdomain, nil},

	"apps/Deployment":         {subdomain, func(c *checker, o map[string]any) { c.workload(o, "deployment") }},
	"apps/ReplicaSet":         {subdomain, func(c *checker, o map[string]any) { c.workload(o, "deployment") }}, // sic: ValidateReplicaSetSpec says deployment
	"apps/StatefulSet":        {label, func(c *checker, o map[string]any) { c.workload(o, "statefulset") }},    // ValidateStatefulSetName
	"apps/DaemonSet":          {subdomain, func(c *checker, o map[string]any) { c.workload(o, "daemonset") }},
	"apps/ControllerRevision": {subdomain, nil},

	"batch/Job":     {subdomain, (*checker).job},
	"batch/CronJob": {subdomain, (*checker).cronJob},

	"networking.k8s.io/Ingress":       {subdomain, (*checker).ingress},
	"networking.k8s.io/IngressClass":  {subdomain, nil},
	"networking.k8s.io/NetworkPolicy": {subdomain, (*checker).networkPolicy},

	"policy/PodDisruptionBudget":                   {subdomain, (*checker).podDisruptionBudget},
	"autoscaling/HorizontalPodAutoscaler":          {subdomain, nil},
	"storage.k8s.io/StorageClass":                  {subdomain, nil},
	"scheduling.k8s.io/PriorityClass":              {subdomain, nil},
	"coordination.k8s.io/Lease":                    {subdomain, nil},
	"discovery.k8s.io/EndpointSlice":               {subdomain, nil},
	"rbac.authorization.k8s.io/Role":               {pathSegment, nil}, // ValidateRBACName
	"rbac.authorization.k8s.io/ClusterRole":        {pathSegment, nil},
	"rbac.authorization.k8s.io/RoleBinding":        {pathSegment, func(c *checker, o map[string]any) { c.roleBinding(o, true) }},
	"rbac.authorization.k8s.io/ClusterRoleBinding": {pathSegment, func(c *checker, o map[string]any) { c.roleBinding(o, false) }},

	"admissionregistration.k8s.io/ValidatingWebhookConfiguration":   {subdomain, nil},
	"admissionregistration.k8s.io/MutatingWebhookConfiguration":     {subdomain, nil},
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        {subdomain, nil},
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": {subdomain, nil},
}

// Accessors of the decoded object: a value of another type reads as absent.

func mapping(v any) map[string]any { m, _ := v.(map[string]any); return m }
func list(v any) []any             { l, _ := v.([]any); return l }
func text(v any) string            { s, _ := v.(string); return s }

// integer is a JSON number that is an integer.
func integer(v any) (int64, bool) {
	f, ok := v.(float64)
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// stringMap is a map of strings (labels, annotations, data); other values are skipped.
func stringMap(v any) map[string]string {
	m := mapping(v)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		if s, ok := val.(string); ok {
			out[k] = s
		}
	}
	return out
}

// sortedKeys are a map's keys in order: the server ranges over maps in random order, krm
// reports in a stable one.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonValue is v as the server's field.Invalid prints a complex value (JSON), for values
// whose Go type differs here.
type jsonValue struct{ v any }

func (j jsonValue) MarshalJSON() ([]byte, error) { return json.Marshal(j.v) }
