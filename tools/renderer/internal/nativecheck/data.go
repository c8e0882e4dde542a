package nativecheck

import (
	"encoding/base64"
	"encoding/json"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxSecretSize mirrors core.MaxSecretSize, the bound of a ConfigMap's and a Secret's data.
const maxSecretSize = 1 * 1024 * 1024

// configMap mirrors core/validation.ValidateConfigMap: keys, a key in both data and
// binaryData, and the total size.
func (c *checker) configMap(obj map[string]any) {
	size := 0
	data, binary := mapping(obj["data"]), mapping(obj["binaryData"])
	for _, k := range sortedKeys(data) {
		p := field.NewPath("data").Key(k)
		for _, msg := range validation.IsConfigMapKey(k) {
			c.add(field.Invalid(p, k, msg))
		}
		if _, dup := binary[k]; dup {
			c.add(field.Invalid(p, k, "duplicate of key present in binaryData"))
		}
		size += len(text(data[k]))
	}
	for _, k := range sortedKeys(binary) {
		for _, msg := range validation.IsConfigMapKey(k) {
			c.add(field.Invalid(field.NewPath("binaryData").Key(k), k, msg))
		}
		b, _ := base64.StdEncoding.DecodeString(text(binary[k]))
		size += len(b)
	}
	if size > maxSecretSize {
		c.add(field.TooLong(field.NewPath(""), "", maxSecretSize))
	}
}

// secret mirrors core/validation.ValidateSecret on the data the server stores (stringData
// merged into data): keys, the total size, and the keys each type requires.
func (c *checker) secret(obj map[string]any) {
	dataPath := field.NewPath("data")
	data := map[string][]byte{}
	for k, v := range mapping(obj["data"]) {
		b, err := base64.StdEncoding.DecodeString(text(v))
		if err != nil {
			b = []byte(text(v)) // the schema check reports it
		}
		data[k] = b
	}
	for k, v := range mapping(obj["stringData"]) {
		data[k] = []byte(text(v))
	}
	size := 0
	for _, k := range sortedKeys(data) {
		for _, msg := range validation.IsConfigMapKey(k) {
			c.add(field.Invalid(dataPath.Key(k), k, msg))
		}
		size += len(data[k])
	}
	if size > maxSecretSize {
		c.add(field.TooLong(dataPath, "", maxSecretSize))
	}
	required := func(keys ...string) {
		for _, k := range keys {
			if _, ok := data[k]; !ok {
				c.add(field.Required(dataPath.Key(k), ""))
			}
		}
	}
	switch text(obj["type"]) {
	case "kubernetes.io/service-account-token":
		if text(mapping(mapping(obj["metadata"])["annotations"])["kubernetes.io/service-account.name"]) == "" {
			c.add(field.Required(field.NewPath("metadata", "annotations").Key("kubernetes.io/service-account.name"), ""))
		}
	case "kubernetes.io/dockercfg":
		c.dockerConfig(data, ".dockercfg", dataPath)
	case "kubernetes.io/dockerconfigjson":
		c.dockerConfig(data, ".dockerconfigjson", dataPath)
	case "kubernetes.io/basic-auth":
		_, user := data["username"]
		_, pass := data["password"]
		if !user && !pass {
			required("username", "password")
		}
	case "kubernetes.io/ssh-auth":
		if len(data["ssh-privatekey"]) == 0 {
			c.add(field.Required(dataPath.Key("ssh-privatekey"), ""))
		}
	case "kubernetes.io/tls":
		required("tls.crt", "tls.key")
	}
}

// dockerConfig requires the key and JSON in it, as ValidateSecret does (its value redacted).
func (c *checker) dockerConfig(data map[string][]byte, key string, dataPath *field.Path) {
	b, ok := data[key]
	if !ok {
		c.add(field.Required(dataPath.Key(key), ""))
		return
	}
	if err := json.Unmarshal(b, &map[string]any{}); err != nil {
		c.add(field.Invalid(dataPath.Key(key), "<secret contents redacted>", err.Error()))
	}
}
