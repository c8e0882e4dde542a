package cluster

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
)

// ErrNotFound is Get's error for an object the server does not have.
var ErrNotFound = clustersupport.ErrNotFound

// Get reads one live object for krm trace --context, as JSON (the response bounded by
// MaxResponseBytes like every other). A namespaced object without a namespace is read from
// the context's.
func (s *session) Get(ctx context.Context, ref clustersupport.Ref) ([]byte, error) {
	data, err := s.get(ctx, ref)
	return data, scrubbed(err)
}

func (s *session) get(ctx context.Context, ref clustersupport.Ref) ([]byte, error) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetNamespace(ref.Namespace)
	u.SetName(ref.Name)
	o := &Object{Unstructured: u}
	ri, err := s.c.resource(ctx, o)
	if err != nil {
		return nil, err
	}
	live, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("%s: %w in context %q (%s)", o, ErrNotFound, s.c.Context, s.c.Server)
	}
	if err != nil {
		return nil, s.c.apiError("get", o, err)
	}
	return json.Marshal(live.Object)
}
