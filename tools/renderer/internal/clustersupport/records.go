package clustersupport

import (
	"context"
	"errors"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// ErrNoRecord is RecordReader.Record's error when no generation record can be found.
var ErrNoRecord = errors.New("no generation record")

// RecordReader reads what krm trace --context and krm status show beside live objects; the
// Session of the full krm is one.
type RecordReader interface {
	// Record reads the generation record of the ApplySet the request named (--applyset), or
	// else of the one the live object is part of (its applyset.kubernetes.io/part-of label),
	// looked for in the object's namespace and the context's. where names the record object
	// (ConfigMap NAMESPACE/NAME). A record object that does not exist is ErrNoRecord, wrapped
	// with what was looked for.
	Record(ctx context.Context, live map[string]any) (rec *genrecord.Record, where string, err error)
	// Objects are the objects of the request's manifests, in their order.
	Objects() []Ref
	// Members are the live members of the request's ApplySet (--applyset), by kind and name.
	Members(ctx context.Context) ([]Ref, error)
}

// OpenRecords connects as Open does and returns what reads live objects and records.
func OpenRecords(ctx context.Context, r Request) (Getter, RecordReader, Session, error) {
	g, s, err := OpenGetter(ctx, r)
	if err != nil {
		return nil, nil, nil, err
	}
	rr, ok := s.(RecordReader)
	if !ok {
		return nil, nil, nil, ErrNoClient
	}
	return g, rr, s, nil
}
