// Package emit orders the final resources and prints them as the YAML stream
// `kustomize build` prints, each object through package printer.
package emit

import (
	"bytes"
	"fmt"
	"log"
	"runtime"
	"sync"
	"sync/atomic"

	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/observe"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/printer"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/resourcemap"
)

// ManagedByValue is the value of app.kubernetes.io/managed-by that
// `buildMetadata: [managedByLabel]` adds: kustomize's own, so output matches.
const ManagedByValue = "kustomize-v5.8.2"

// Options says how to finish the stream.
type Options struct {
	// SortOptions from the kustomization; nil means legacy order.
	SortOptions *types.SortOptions
	// BuildMetadata from the top kustomization.
	BuildMetadata []string
	// Reorder is kustomize build's deprecated --reorder flag: "" (not
	// given) or "legacy" sort as SortOptions says; "none" keeps the input
	// order when the kustomization has no sortOptions.
	Reorder string
	// ManagedByLabel is kustomize build's deprecated --enable-managedby-label:
	// label every object as buildMetadata [managedByLabel] does.
	ManagedByLabel bool
	// Log receives kustomize's warnings (kustomize prints them through the
	// log package); nil means log's standard logger.
	Log *log.Logger
	// Top is the top kustomization, which observers see configure the
	// managed-by label.
	Top observe.Kustomization
}

// ReorderNone is the --reorder value that suppresses the final sort.
const ReorderNone = "none"

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Prepare sorts m and strips kustomize's internal bookkeeping from it,
// telling obs of the managed-by label it adds.
func Prepare(m resmap.ResMap, o Options, obs observe.Observer) error {
	if o.SortOptions != nil && o.Reorder != "" {
		logger := o.Log
		if logger == nil {
			logger = log.Default()
		}
		logger.Println("Warning: Sorting order is set both in 'kustomization.yaml' ('sortOptions') and in a CLI flag ('--reorder'). " +
			"Using the kustomization file over the CLI flag.") // kustomize's words
	}
	if o.SortOptions != nil || o.Reorder != ReorderNone {
		if err := Sort(m, o.SortOptions); err != nil {
			return err
		}
	}
	if o.ManagedByLabel || has(o.BuildMetadata, types.ManagedByLabelOption) {
		t := builtins.LabelTransformerPlugin{
			Labels:     map[string]string{konfig.ManagedbyLabelKey: ManagedByValue},
			FieldSpecs: []types.FieldSpec{{Path: "metadata/labels", CreateIfNotPresent: true}},
		}
		step := &observe.Step{
			Role: observe.Transformer, Kind: "LabelTransformer", In: o.Top, Builtin: true, Ordinal: -1,
			Config: observe.ConfigOf([]byte(konfig.ManagedbyLabelKey + ": " + ManagedByValue + "\n")),
			// It labels every object.
			Report: func() func() []*resource.Resource { return m.Resources },
		}
		if err := obs.Step(step, m, func() error { return t.Transform(m) }); err != nil {
			return err
		}
	}
	m.RemoveBuildAnnotations()
	if !has(o.BuildMetadata, types.OriginAnnotations) {
		if err := m.RemoveOriginAnnotations(); err != nil {
			return fmt.Errorf("failed to clean up origin tracking annotations: %w", err)
		}
	}
	if !has(o.BuildMetadata, types.TransformerAnnotations) {
		if err := m.RemoveTransformerAnnotations(); err != nil {
			return fmt.Errorf("failed to clean up transformer annotations: %w", err)
		}
	}
	return nil
}

// YAML prints m as a `---`-separated stream, each object with the
// annotations obs adds (provenance's). Objects are printed in parallel:
// each print reads only its own object, and obs is asked about that
// object only.
func YAML(m resmap.ResMap, obs observe.Observer) ([]byte, error) {
	list := m.Resources()
	outs := make([][]byte, len(list))
	errs := make([]error, len(list))
	var next atomic.Int64
	next.Store(-1)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := printer.Entries{}
			for {
				i := int(next.Add(1))
				if i >= len(list) {
					return
				}
				outs[i], errs[i] = printOne(i, list[i], obs, seen)
			}
		}()
	}
	wg.Wait()
	size := 0
	for i, out := range outs {
		if errs[i] != nil {
			return nil, fmt.Errorf("%s: %w", resourcemap.CurID(list[i]), errs[i])
		}
		size += len(out) + len("---\n")
	}
	b := bytes.NewBuffer(make([]byte, 0, size))
	for i, out := range outs {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(out)
	}
	return b.Bytes(), nil
}

// printOne prints r, the i-th object, with the annotations obs adds.
func printOne(i int, r *resource.Resource, obs observe.Observer, seen printer.Entries) ([]byte, error) {
	ann, err := obs.Annotations(i, r)
	switch {
	case err != nil:
		return nil, err
	case len(ann) == 0:
		return printer.Object(r)
	}
	return printer.WithAnnotations(r, ann, seen)
}
