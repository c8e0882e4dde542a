// Package kubeconfig writes kubeconfig files for tests, with each kind of credential a client
// can send: a bearer token, a token file, a client certificate (ClientCert makes one) and an
// exec credential plugin (ExecPlugin: the test binary itself, which counts its runs). It needs
// no client-go: JSON is valid YAML, and client-go and kubectl read it.
package kubeconfig

import (
	"encoding/json"
	"fmt"
	"os"
)

// Context is one context of a kubeconfig: a cluster (Server, trusted through CA) and a user.
type Context struct {
	Name string
	// Cluster and UserName name the context's cluster and user entries (default: Name); the
	// contexts naming one cluster share the first one's entry.
	Cluster, UserName string
	Server            string
	CA                []byte // PEM; nil: none (a plain http:// server)
	Namespace         string
	User              User
}

// User is a context's credentials; set one kind, or none.
type User struct {
	Token     string
	TokenFile string
	// ClientCert and ClientKey are PEM.
	ClientCert, ClientKey []byte
	Exec                  *Exec
}

// The kubeconfig's types, as far as tests write them.
type config struct {
	APIVersion     string         `json:"apiVersion"`
	Kind           string         `json:"kind"`
	CurrentContext string         `json:"current-context,omitempty"`
	Clusters       []namedCluster `json:"clusters"`
	Users          []namedUser    `json:"users"`
	Contexts       []namedContext `json:"contexts"`
}

type namedCluster struct {
	Name    string `json:"name"`
	Cluster struct {
		Server                   string `json:"server"`
		CertificateAuthorityData []byte `json:"certificate-authority-data,omitempty"`
	} `json:"cluster"`
}

type namedUser struct {
	Name string    `json:"name"`
	User userEntry `json:"user"`
}

type userEntry struct {
	Token                 string    `json:"token,omitempty"`
	TokenFile             string    `json:"tokenFile,omitempty"`
	ClientCertificateData []byte    `json:"client-certificate-data,omitempty"`
	ClientKeyData         []byte    `json:"client-key-data,omitempty"`
	Exec                  *execUser `json:"exec,omitempty"`
}

type namedContext struct {
	Name    string `json:"name"`
	Context struct {
		Cluster   string `json:"cluster"`
		User      string `json:"user"`
		Namespace string `json:"namespace,omitempty"`
	} `json:"context"`
}

// Write writes a kubeconfig with the contexts and current as its current context ("": none)
// to path, readable by the owner only.
func Write(path, current string, contexts ...Context) error {
	kc := config{APIVersion: "v1", Kind: "Config", CurrentContext: current,
		Clusters: []namedCluster{}, Users: []namedUser{}, Contexts: []namedContext{}}
	clusters := map[string]bool{}
	for _, c := range contexts {
		cluster, user := or(c.Cluster, c.Name), or(c.UserName, c.Name)
		if !clusters[cluster] {
			clusters[cluster] = true
			var nc namedCluster
			nc.Name = cluster
			nc.Cluster.Server = c.Server
			nc.Cluster.CertificateAuthorityData = c.CA
			kc.Clusters = append(kc.Clusters, nc)
		}
		u := userEntry{Token: c.User.Token, TokenFile: c.User.TokenFile,
			ClientCertificateData: c.User.ClientCert, ClientKeyData: c.User.ClientKey}
		if c.User.Exec != nil {
			u.Exec = c.User.Exec.entry()
		}
		kc.Users = append(kc.Users, namedUser{Name: user, User: u})
		var ctx namedContext
		ctx.Name = c.Name
		ctx.Context.Cluster, ctx.Context.User, ctx.Context.Namespace = cluster, user, c.Namespace
		kc.Contexts = append(kc.Contexts, ctx)
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

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
