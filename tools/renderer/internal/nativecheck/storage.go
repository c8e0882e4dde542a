package nativecheck

import "k8s.io/apimachinery/pkg/util/validation/field"

// claimSpec mirrors core/validation.ValidatePersistentVolumeClaimSpec's first rule.
func (c *checker) claimSpec(spec map[string]any, fld *field.Path) {
	if spec != nil && len(list(spec["accessModes"])) == 0 {
		c.add(field.Required(fld.Child("accessModes"), "at least 1 access mode is required"))
	}
}

func (c *checker) persistentVolumeClaim(obj map[string]any) {
	c.claimSpec(mapping(obj["spec"]), field.NewPath("spec"))
}

// persistentVolume mirrors core/validation.ValidatePersistentVolumeSpec's access modes.
func (c *checker) persistentVolume(obj map[string]any) {
	if spec := mapping(obj["spec"]); spec != nil && len(list(spec["accessModes"])) == 0 {
		c.add(field.Required(field.NewPath("spec", "accessModes"), ""))
	}
}
