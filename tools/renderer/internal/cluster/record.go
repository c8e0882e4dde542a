package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/genrecord"
)

// RecordOptions say what krm apply records of each object it applies (genrecord): the
// generation the server returned, the commit and the object's inputs digest.
type RecordOptions struct {
	// Commit is --source-commit.
	Commit string
	// Inputs returns the object's inputs digest and kustomization from the provenance
	// manifests (empty: none has it).
	Inputs func(obj *Object) (digest, kustomization string)
	// Paths are the per-kind output paths, for the garbage collection.
	Paths []genrecord.OutputPath
	// Warn receives what did not stop the apply (a newer krm's record left alone).
	Warn func(string)
}

// ErrRecordForbidden is a record the user may not read or write.
var ErrRecordForbidden = errors.New("the generation record is forbidden")

// recordTries bounds the writes of a record that another apply changed meanwhile.
const recordTries = 5

// recorder is one apply's record: read before anything is applied, written once after.
type recorder struct {
	c    *Client
	set  ApplySet
	o    RecordOptions
	now  time.Time
	rec  *genrecord.Record
	live *unstructured.Unstructured // nil: no record object yet
	adds []recordAdd
	// skip: the record is a newer krm's (newer), left alone.
	skip  bool
	newer error
}

type recordAdd struct {
	key      genrecord.Key
	entry    genrecord.Entry
	observed int64
}

// recordObject is the record object of a set: a ConfigMap beside its parent.
func recordObject(set ApplySet) *Object {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetName(genrecord.Name(set.Name))
	u.SetNamespace(set.Namespace)
	return &Object{Unstructured: u}
}

// openRecord reads the set's record and checks, with a server-side dry run, that the user may
// write it: a user who may apply but not record is told before anything is applied.
func (c *Client) openRecord(ctx context.Context, set ApplySet, o RecordOptions) (*recorder, error) {
	r := &recorder{c: c, set: set, o: o, now: time.Now().UTC()}
	if err := r.read(ctx); err != nil {
		return nil, err
	}
	if r.skip {
		return r, nil
	}
	if err := r.put(ctx, true); err != nil {
		return nil, err
	}
	return r, nil
}

// ReadRecord reads the generation record of set: nil when there is none.
func (c *Client) ReadRecord(ctx context.Context, set ApplySet) (*genrecord.Record, error) {
	r := &recorder{c: c, set: set}
	if err := r.read(ctx); err != nil {
		return nil, err
	}
	if r.live == nil || r.newer != nil {
		return nil, r.newer
	}
	return r.rec, nil
}

func (r *recorder) iface(ctx context.Context) (dynamic.ResourceInterface, *Object, error) {
	obj := recordObject(r.set)
	ri, err := r.c.resource(ctx, obj)
	return ri, obj, err
}

func (r *recorder) read(ctx context.Context) error {
	ri, obj, err := r.iface(ctx)
	if err != nil {
		return err
	}
	r.rec, r.live = &genrecord.Record{}, nil
	live, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case err != nil:
		return r.fail("get", obj, err)
	}
	if id := live.GetLabels()[genrecord.SetLabel]; id != r.set.ID() {
		return fmt.Errorf("ConfigMap %s/%s is not the generation record of ApplySet %s (its label %s is %q): krm leaves it alone; rename it, or apply with --no-record",
			obj.GetNamespace(), obj.GetName(), r.set, genrecord.SetLabel, id)
	}
	r.live = live
	data, _, _ := unstructured.NestedString(live.Object, "data", genrecord.DataKey)
	if data == "" {
		return nil
	}
	rec, err := genrecord.Parse([]byte(data))
	var newer *genrecord.NewerError
	switch {
	case errors.As(err, &newer):
		r.skip, r.newer = true, fmt.Errorf("ConfigMap %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
		r.warn(fmt.Sprintf("generations not recorded: ConfigMap %s/%s: %v", obj.GetNamespace(), obj.GetName(), err))
	case err != nil:
		r.warn(fmt.Sprintf("ConfigMap %s/%s: %v: replaced by a new record", obj.GetNamespace(), obj.GetName(), err))
	default:
		r.rec = rec
	}
	return nil
}

func (r *recorder) warn(s string) {
	if r.o.Warn != nil {
		r.o.Warn(s)
	}
}

// fail is a record request's error: a forbidden one names the permission and --no-record.
func (r *recorder) fail(verb string, obj *Object, err error) error {
	if apierrors.IsForbidden(err) {
		return fmt.Errorf("%w: context %q may not %s configmaps in namespace %q, where the generation record ConfigMap %s of ApplySet %s is kept: grant get, create and update on configmaps there, or apply with --no-record",
			ErrRecordForbidden, r.c.Context, verb, obj.GetNamespace(), obj.GetName(), r.set)
	}
	return fmt.Errorf("generation record: %w", r.c.apiError(verb, obj, err))
}

// applied records an object the apply wrote: before is the live object it replaced (nil: it
// was created), after what the server returned.
func (r *recorder) applied(obj *Object, before, after *unstructured.Unstructured) {
	if r == nil || r.skip || after.GetGeneration() == 0 {
		return
	}
	e := genrecord.Entry{Generation: after.GetGeneration(), Commit: r.o.Commit, Applied: r.now.Format(time.RFC3339)}
	if r.o.Inputs != nil {
		e.InputDigest, e.Kustomization = r.o.Inputs(obj)
	}
	var observed int64
	if before != nil {
		observed = genrecord.Observed(genrecord.Outputs(before.Object, r.o.Paths))
	}
	r.adds = append(r.adds, recordAdd{key: genrecord.KeyOf(after.Object), entry: e, observed: observed})
}

// write merges this apply's entries into the record and writes it; when another apply wrote
// it meanwhile, it reads it again and merges once more.
func (r *recorder) write(ctx context.Context) error {
	if r == nil || r.skip || len(r.adds) == 0 {
		return nil
	}
	for try := 1; ; try++ {
		err := r.put(ctx, false)
		if !apierrors.IsConflict(err) && !apierrors.IsAlreadyExists(err) || try == recordTries {
			return err
		}
		if err := r.read(ctx); err != nil || r.skip {
			return err
		}
	}
}

// put writes the record with this apply's entries (dryRun: checks the permission only).
func (r *recorder) put(ctx context.Context, dryRun bool) error {
	ri, obj, err := r.iface(ctx)
	if err != nil {
		return err
	}
	applied := map[genrecord.Key]bool{}
	for _, a := range r.adds {
		r.rec.Add(a.key, a.entry, a.observed)
		applied[a.key] = true
	}
	data, err := r.rec.Marshal(func(k genrecord.Key) bool { return applied[k] })
	if err != nil {
		return fmt.Errorf("ConfigMap %s/%s: %w", obj.GetNamespace(), obj.GetName(), err)
	}
	if r.live != nil {
		if old, _, _ := unstructured.NestedString(r.live.Object, "data", genrecord.DataKey); !dryRun && old == string(data) {
			return nil // an apply that changed nothing recorded: no write
		}
		obj.SetResourceVersion(r.live.GetResourceVersion())
	}
	obj.SetLabels(map[string]string{genrecord.SetLabel: r.set.ID()})
	obj.Object["data"] = map[string]any{genrecord.DataKey: string(data)}
	var dry []string
	if dryRun {
		dry = []string{metav1.DryRunAll}
	}
	if r.live == nil {
		_, err = ri.Create(ctx, obj.Unstructured, metav1.CreateOptions{FieldManager: FieldManager, DryRun: dry})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return r.fail("create", obj, err)
		}
		return err
	}
	_, err = ri.Update(ctx, obj.Unstructured, metav1.UpdateOptions{FieldManager: FieldManager, DryRun: dry})
	if err != nil && !apierrors.IsConflict(err) {
		return r.fail("update", obj, err)
	}
	return err
}
