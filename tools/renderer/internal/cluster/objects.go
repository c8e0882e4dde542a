package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/rules-krm/rules_krm/internal/yamlnode"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/rdiff"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// Object is one rendered object and, once mapped, where the API serves it.
type Object struct {
	*unstructured.Unstructured
	mapping mapping
	mapped  bool
}

// ID is the object's group, kind, namespace and name, as krm diff names objects.
func (o *Object) ID() rdiff.ID {
	return rdiff.ID{Group: o.GroupVersionKind().Group, Kind: o.GetKind(), Namespace: o.GetNamespace(), Name: o.GetName()}
}

func (o *Object) String() string { return o.ID().String() }

// ReadManifests reads rendered manifests (YAML streams, "-" for stdin) with krm diff's bounds.
// Every object needs apiVersion, kind and metadata.name; an object written twice is an error.
func ReadManifests(paths []string, stdin io.Reader) ([]*Object, error) {
	var objs []*Object
	seen := map[rdiff.ID]string{}
	for _, p := range paths {
		var data []byte
		var err error
		if p == "-" {
			data, err = yamlread.Read(stdin, "stdin")
		} else {
			data, err = yamlread.File(p)
		}
		if err != nil {
			return nil, err
		}
		fileObjs, err := parseObjects(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for _, o := range fileObjs {
			if first, dup := seen[o.ID()]; dup {
				return nil, malformed("%s: %s is also in %s: an object can be applied once", p, o, first)
			}
			seen[o.ID()] = p
			objs = append(objs, o)
		}
	}
	return objs, nil
}

// inputError is manifests krm cannot apply: like the bounds' errors, it is
// yamlread.ErrMalformed (the commands exit 2), with msg as its text.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }
func (e *inputError) Unwrap() error { return yamlread.ErrMalformed }

func malformed(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

func parseObjects(data []byte) ([]*Object, error) {
	nodes, err := yamlread.Nodes(data)
	if err != nil {
		return nil, err
	}
	objs := make([]*Object, 0, len(nodes))
	for i, n := range nodes {
		// Not kyaml's MarshalJSON: go-yaml's decoding compares a mapping's keys
		// pairwise (a ConfigMap of 80,000 keys: 30 s). yamlread refused repeated keys.
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(yamlnode.JSON(n)); err != nil {
			return nil, malformed("object %d: %v", i+1, err)
		}
		if u.GetAPIVersion() == "" || u.GetKind() == "" || u.GetName() == "" {
			return nil, malformed("object %d: needs apiVersion, kind and metadata.name", i+1)
		}
		objs = append(objs, &Object{Unstructured: u})
	}
	return objs, nil
}

// resource maps the object and sets its namespace: the client's default for a namespaced
// object without one, none for a cluster-scoped one.
func (c *Client) resource(ctx context.Context, o *Object) (dynamic.ResourceInterface, error) {
	if !o.mapped {
		m, err := c.mapper.mapping(ctx, o.GroupVersionKind())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o, err)
		}
		o.mapping, o.mapped = m, true
		switch {
		case m.Namespaced && o.GetNamespace() == "":
			o.SetNamespace(c.Namespace)
		case !m.Namespaced && o.GetNamespace() != "":
			return nil, fmt.Errorf("%s: %s is cluster-scoped: remove metadata.namespace", o, o.GetKind())
		}
	}
	return c.client(o.mapping, o.GetNamespace()), nil
}

func (c *Client) client(m mapping, namespace string) dynamic.ResourceInterface {
	r := c.dyn.Resource(m.Resource)
	if m.Namespaced {
		return r.Namespace(namespace)
	}
	return r
}

// isCRD and isNamespace pick the objects applied (and waited for) before the others.
func isCRD(o *Object) bool {
	gvk := o.GroupVersionKind()
	return gvk.Group == "apiextensions.k8s.io" && gvk.Kind == "CustomResourceDefinition"
}

func isNamespace(o *Object) bool {
	gvk := o.GroupVersionKind()
	return gvk.Group == "" && gvk.Kind == "Namespace"
}

// phases splits objects into CRDs and Namespaces, then the rest, each in render order.
func phases(objs []*Object) (first, rest []*Object) {
	for _, o := range objs {
		if isCRD(o) || isNamespace(o) {
			first = append(first, o)
		} else {
			rest = append(rest, o)
		}
	}
	return first, rest
}

var conflictManager = regexp.MustCompile(`conflict with "([^"]*)"`)

// apiError explains an error of a request about an object: an unreachable server names its
// URL, a Forbidden one the verb, resource and namespace, a conflict each field and its
// manager.
func (c *Client) apiError(verb string, o *Object, err error) error {
	var ue *url.Error
	var ne net.Error
	var re *RedirectError
	if errors.As(err, &ue) || errors.As(err, &ne) || errors.As(err, &re) {
		return fmt.Errorf("%s %s: %w", verb, o, c.unreachable(err))
	}
	if bad := c.notJSON(err); bad != nil {
		return fmt.Errorf("%s %s: %w", verb, o, bad)
	}
	where := "cluster-wide"
	if o.GetNamespace() != "" {
		where = fmt.Sprintf("in namespace %q", o.GetNamespace())
	}
	switch {
	case apierrors.IsForbidden(err):
		return fmt.Errorf("%s %s: %w: context %q may not %s %s %s (grant the verb in RBAC, or use another context): %s",
			verb, o, ErrForbidden, c.Context, verb, groupResource(o.mapping.Resource), where, scrub.Message(err.Error()))
	case apierrors.IsConflict(err):
		var st apierrors.APIStatus
		if errors.As(err, &st) && st.Status().Details != nil {
			var fields []string
			for _, cause := range st.Status().Details.Causes {
				if cause.Type != metav1.CauseTypeFieldManagerConflict {
					continue
				}
				manager := cause.Message
				if m := conflictManager.FindStringSubmatch(cause.Message); m != nil {
					manager = m[1]
				}
				fields = append(fields, fmt.Sprintf("%s (owned by field manager %q)", cause.Field, manager))
			}
			if len(fields) > 0 {
				return fmt.Errorf("%s %s: %w: %s: another field manager set these fields to other values; rerun with --force-conflicts to take them for %q, or leave them out of the render",
					verb, o, ErrConflict, scrub.Message(strings.Join(fields, ", ")), FieldManager)
			}
		}
	}
	return fmt.Errorf("%s %s: %w", verb, o, serverMessage(err))
}

// shownError is an error with the text krm shows of it; errors.Is and As still see err.
type shownError struct {
	err error
	msg string
}

func (e *shownError) Error() string { return e.msg }
func (e *shownError) Unwrap() error { return e.err }

// serverMessage is an API server's error as krm prints it, bounded (scrub.Message).
func serverMessage(err error) error { return &shownError{err: err, msg: scrub.Message(err.Error())} }

// scrubbed is err with no URL's userinfo in its text (a kubeconfig's server URL may hold
// user:password@, and client-go's errors quote request URLs): what leaves a Session.
func scrubbed(err error) error {
	if err == nil {
		return nil
	}
	return &shownError{err: err, msg: scrub.URLs(err.Error())}
}

func groupResource(r schema.GroupVersionResource) string {
	if r.Group == "" {
		return fmt.Sprintf("%q", r.Resource)
	}
	return fmt.Sprintf("%q", r.Resource+"."+r.Group)
}
