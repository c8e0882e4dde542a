package resourcemap

import (
	"fmt"

	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/resid"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// mergeGenerated merges the existing object old into res, a generated object
// with behavior merge: res keeps old's data it does not override, old's
// metadata and old's origin.
func mergeGenerated(res, old *resource.Resource, id resid.ResId) error {
	origin, err := old.GetOrigin()
	if err != nil {
		return err
	}
	forData := old
	if res.GetApiVersion() == "v1" && res.GetKind() == "Secret" {
		if forData, err = secretWithStringDataEncoded(old); err != nil {
			return fmt.Errorf("failed to normalize stringData for %s: %w", id, err)
		}
	}
	// kustomize ignores a failure to copy metadata here; so do we.
	_ = res.CopyMergeMetaDataFieldsFrom(old)
	res.MergeDataMapFrom(forData)
	res.MergeBinaryDataMapFrom(old)
	if origin != nil {
		return res.SetOrigin(origin)
	}
	return nil
}

// secretWithStringDataEncoded returns a copy of a Secret with stringData
// folded into data, as the API server would (stringData wins).
func secretWithStringDataEncoded(r *resource.Resource) (*resource.Resource, error) {
	c := r.DeepCopy()
	sd, err := c.Pipe(yaml.Lookup("stringData"))
	if err != nil {
		return nil, fmt.Errorf("lookup stringData: %w", err)
	}
	if !yaml.IsMissingOrNull(sd) {
		values := map[string]string{}
		err := sd.VisitFields(func(n *yaml.MapNode) error {
			k := yaml.GetValue(n.Key)
			if n.Value == nil || n.Value.YNode() == nil || n.Value.YNode().Kind != yaml.ScalarNode {
				return fmt.Errorf("stringData value for key %q must be a scalar", k)
			}
			values[k] = yaml.GetValue(n.Value)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read stringData: %w", err)
		}
		if err := c.LoadMapIntoSecretData(values); err != nil {
			return nil, fmt.Errorf("encode stringData: %w", err)
		}
	}
	if err := c.PipeE(yaml.Clear("stringData")); err != nil {
		return nil, fmt.Errorf("clear stringData: %w", err)
	}
	return c, nil
}
