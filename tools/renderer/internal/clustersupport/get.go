package clustersupport

import (
	"context"
	"errors"
)

// ErrNotFound is Getter.Get's error for an object the server does not have.
var ErrNotFound = errors.New("not found")

// FieldManager is the field manager of krm apply (package cluster applies as it): krm trace
// names the other managers that own a drifted field.
const FieldManager = "krm"

// Ref names one live object: the API version and kind it is read as, its namespace (empty:
// the context's namespace for a namespaced kind) and name.
type Ref struct {
	APIVersion, Kind, Namespace, Name string
}

// Getter reads live objects (krm trace --context); the Session of the full krm is one.
type Getter interface {
	// Get returns the object as the API server serves it, as JSON, read within the bounds of
	// every API response (package cluster's MaxResponseBytes).
	Get(ctx context.Context, ref Ref) ([]byte, error)
}

// OpenGetter connects as Open does (r.Manifests empty) and returns what reads live objects.
func OpenGetter(ctx context.Context, r Request) (Getter, Session, error) {
	s, err := Open(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	g, ok := s.(Getter)
	if !ok { // every Session of package cluster is one
		return nil, nil, ErrNoClient
	}
	return g, s, nil
}
