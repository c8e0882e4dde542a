package cluster

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/convergence"
)

// WaitOptions are krm apply --wait's: how long, and where progress goes.
type WaitOptions = convergence.Options

// wait polls the applied objects until each is current (package convergence's rules).
func (c *Client) wait(ctx context.Context, objs []*Object, o WaitOptions) error {
	targets := make([]convergence.Target, len(objs))
	for i, obj := range objs {
		targets[i] = convergence.Target{Name: obj.String(), Get: func(ctx context.Context) (map[string]any, error) {
			return c.live(ctx, obj)
		}}
	}
	return convergence.Wait(ctx, targets, o)
}

// live reads an object as the server has it: nil when it does not exist.
func (c *Client) live(ctx context.Context, obj *Object) (map[string]any, error) {
	ri, err := c.resource(ctx, obj)
	if err != nil {
		return nil, err
	}
	u, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, c.apiError("get", obj, err)
	}
	return u.Object, nil
}
