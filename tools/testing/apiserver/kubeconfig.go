package apiserver

import (
	"encoding/json"
	"fmt"
	"os"
)

// The kubeconfig's types, as far as the harness writes them (JSON is valid YAML: client-go and
// kubectl read it).
type kubeconfig struct {
	APIVersion     string         `json:"apiVersion"`
	Kind           string         `json:"kind"`
	CurrentContext string         `json:"current-context"`
	Clusters       []namedCluster `json:"clusters"`
	Users          []namedUser    `json:"users"`
	Contexts       []namedContext `json:"contexts"`
}

type namedCluster struct {
	Name    string `json:"name"`
	Cluster struct {
		Server                   string `json:"server"`
		CertificateAuthorityData []byte `json:"certificate-authority-data"`
	} `json:"cluster"`
}

type namedUser struct {
	Name string `json:"name"`
	User struct {
		Token string `json:"token"`
	} `json:"user"`
}

type namedContext struct {
	Name    string `json:"name"`
	Context struct {
		Cluster string `json:"cluster"`
		User    string `json:"user"`
	} `json:"context"`
}

// writeKubeconfig writes a kubeconfig with one cluster (url, trusted through caPEM) and the
// contexts AdminContext (current) and LimitedContext.
func writeKubeconfig(path, url string, caPEM []byte, adminToken, limitedToken string) error {
	const cluster = "krm-test"
	kc := kubeconfig{APIVersion: "v1", Kind: "Config", CurrentContext: AdminContext}
	var c namedCluster
	c.Name = cluster
	c.Cluster.Server = url
	c.Cluster.CertificateAuthorityData = caPEM
	kc.Clusters = []namedCluster{c}
	for _, u := range []struct{ context, user, token string }{
		{AdminContext, AdminUser, adminToken},
		{LimitedContext, LimitedUser, limitedToken},
	} {
		var nu namedUser
		nu.Name = u.user
		nu.User.Token = u.token
		kc.Users = append(kc.Users, nu)
		var nc namedContext
		nc.Name = u.context
		nc.Context.Cluster = cluster
		nc.Context.User = u.user
		kc.Contexts = append(kc.Contexts, nc)
	}
	data, err := json.MarshalIndent(kc, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the kubeconfig: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing the kubeconfig: %w", err)
	}
	return nil
}
