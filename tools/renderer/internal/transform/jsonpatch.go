package transform

import (
	"fmt"
	"reflect"
	"unsafe"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"sigs.k8s.io/kustomize/api/builtins"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/patch6902"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yaml11"
)

// patchPlugin is kustomize's PatchTransformer, configured by kustomize,
// that applies a JSON 6902 patch through patch6902: decoded once, and
// without kustomize's YAML text round trips for each resource.
type patchPlugin struct {
	*builtins.PatchTransformerPlugin
	// ops is the decoded patch when kustomize takes its JSON 6902 path.
	ops jsonpatch.Patch
	// untargeted are the strategic merge patches of an entry without a
	// target, which kustomize applies to the object each one names by
	// calling Resource.ApplySmPatch itself, past the map's yaml11 path.
	untargeted []*resource.Resource
}

// NewPatchPlugin is builtins.NewPatchTransformerPlugin with patchPlugin's
// JSON 6902 path, for PatchTransformer configs in `transformers`.
func NewPatchPlugin() resmap.TransformerPlugin { return newPatchPlugin() }

func newPatchPlugin() *patchPlugin {
	return &patchPlugin{PatchTransformerPlugin: builtins.NewPatchTransformerPlugin().(*builtins.PatchTransformerPlugin)}
}

func (p *patchPlugin) Config(h *resmap.PluginHelpers, c []byte) error {
	if err := p.PatchTransformerPlugin.Config(h, c); err != nil {
		return err
	}
	if p.Target == nil {
		p.untargeted = smPatches(p.PatchTransformerPlugin)
	}
	text, ok := json6902Text(p.PatchTransformerPlugin)
	if !ok {
		return nil
	}
	// kustomize decoded text this way in Config, and does so again for each
	// resource it patches: the same result every time.
	ops, err := patch6902.Decode(text)
	if err != nil {
		return fmt.Errorf("JSON patch decoded in Config fails now: %w", err)
	}
	p.ops = ops
	return nil
}

// json6902Text is the patch text of a configured PatchTransformer when its
// Transform takes the JSON 6902 path: no strategic merge patches and a JSON
// patch. Config keeps which in unexported fields; reflect reads them (and a
// test fails should kustomize rename them).
func json6902Text(p *builtins.PatchTransformerPlugin) (string, bool) {
	v := reflect.ValueOf(p).Elem()
	sm, json, text := v.FieldByName("smPatches"), v.FieldByName("jsonPatches"), v.FieldByName("patchText")
	if !sm.IsValid() || !json.IsValid() || text.Kind() != reflect.String ||
		!sm.IsNil() || json.IsNil() {
		return "", false
	}
	return text.String(), true
}

// smPatches are the strategic merge patches Config kept, if any: the very
// objects kustomize would merge, read from their unexported field (as
// json6902Text reads the JSON patch; reflect hands out values of unexported
// fields only through their address).
func smPatches(p *builtins.PatchTransformerPlugin) []*resource.Resource {
	v := reflect.ValueOf(p).Elem().FieldByName("smPatches")
	if !v.IsValid() || v.Type() != reflect.TypeOf([]*resource.Resource(nil)) || v.IsNil() {
		return nil
	}
	return *(*[]*resource.Resource)(unsafe.Pointer(v.UnsafeAddr()))
}

// Transform is kustomize's transformJson6902 with patch6902's filter, and
// its strategic merge of an entry without a target through yaml11.
func (p *patchPlugin) Transform(m resmap.ResMap) error {
	switch {
	case p.untargeted != nil:
		return mergeEach(m, p.untargeted)
	case p.ops == nil || p.Target == nil:
		return p.PatchTransformerPlugin.Transform(m)
	}
	return patchEach(m, *p.Target, p.ops, true)
}

// untargetedScope is what an entry without a target can change in place:
// the object each of its strategic merge patches names (provenance then
// fingerprints those alone). A patch naming no object fails the step, and
// gives no scope here.
func (p *patchPlugin) untargetedScope(m resmap.ResMap) ([]*resource.Resource, error) {
	scope := make([]*resource.Resource, 0, len(p.untargeted))
	for _, patch := range p.untargeted {
		r, err := m.GetById(patch.OrgId())
		if err != nil {
			return nil, err
		}
		scope = append(scope, r)
	}
	return scope, nil
}

// mergeEach is kustomize's transformStrategicMerge for an entry without a
// target: each patch merged into the object of its own ID, with the errors
// kustomize gives, through yaml11.ApplySmPatch (Resource.ApplySmPatch with
// kyaml's YAML 1.1 checks spared and the untouched fields hidden).
func mergeEach(m resmap.ResMap, patches []*resource.Resource) error {
	for _, patch := range patches {
		target, err := m.GetById(patch.OrgId())
		if err != nil {
			return fmt.Errorf("no resource matches strategic merge patch %q: %w", patch.OrgId(), err)
		}
		if err := yaml11.ApplySmPatch(target, patch); err != nil {
			return err
		}
	}
	return nil
}

// patchEach is the loop of kustomize's two JSON 6902 transformers: each
// resource target selects patched, its internal annotations put back.
// PatchTransformer (patchTransformer) stores each one's id first and drops
// an error setting annotations, which PatchJson6902Transformer returns.
func patchEach(m resmap.ResMap, target types.Selector, ops jsonpatch.Patch, patchTransformer bool) error {
	resources, err := m.Select(target)
	if err != nil {
		return err
	}
	f := patch6902.Filter{Patch: ops}
	for _, res := range resources {
		if patchTransformer {
			res.StorePreviousId()
		}
		internal := kioutil.GetInternalAnnotations(&res.RNode)
		if err := res.ApplyFilter(f); err != nil {
			return err
		}
		annotations := res.GetAnnotations()
		for k, v := range internal {
			annotations[k] = v
		}
		if err := res.SetAnnotations(annotations); err != nil && !patchTransformer {
			return err
		}
	}
	return nil
}

// json6902Plugin is kustomize's PatchJson6902Transformer (the deprecated
// patchesJson6902 field) with patch6902's filter.
type json6902Plugin struct {
	*builtins.PatchJson6902TransformerPlugin
	ops jsonpatch.Patch
}

// NewJSON6902Plugin is builtins.NewPatchJson6902TransformerPlugin with
// patch6902's filter, for configs in `transformers`.
func NewJSON6902Plugin() resmap.TransformerPlugin { return newJSON6902Plugin() }

func newJSON6902Plugin() *json6902Plugin {
	return &json6902Plugin{PatchJson6902TransformerPlugin: builtins.NewPatchJson6902TransformerPlugin().(*builtins.PatchJson6902TransformerPlugin)}
}

func (p *json6902Plugin) Config(h *resmap.PluginHelpers, c []byte) error {
	if err := p.PatchJson6902TransformerPlugin.Config(h, c); err != nil {
		return err
	}
	// Config left JsonOp as JSON, which it decoded as the filter does.
	ops, err := patch6902.Decode(p.JsonOp)
	if err != nil {
		return fmt.Errorf("JSON patch decoded in Config fails now: %w", err)
	}
	p.ops = ops
	return nil
}

// Transform is kustomize's PatchJson6902Transformer.Transform with
// patch6902's filter.
func (p *json6902Plugin) Transform(m resmap.ResMap) error {
	if p.Target == nil {
		return p.PatchJson6902TransformerPlugin.Transform(m)
	}
	return patchEach(m, *p.Target, p.ops, false)
}
