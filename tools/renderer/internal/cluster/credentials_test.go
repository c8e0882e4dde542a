package cluster

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
)

// What the credentials tests send and must never see leave: a Secret's value, and each kind
// of credential a kubeconfig can hold.
const (
	secretValue = "c2VjcmV0LXZhbHVlLW5ldmVyLWVsc2V3aGVyZQ=="
	staticToken = "static-token-0123456789"
	fileToken   = "file-token-0123456789"
	execToken   = "exec-token-0123456789"
)

const secretYAML = `apiVersion: v1
kind: Secret
metadata:
  name: s
  namespace: default
data:
  password: ` + secretValue + "\n"

// fakeAPI routes what krm's apply, delete, diff and get need of an API server for the
// Secret, after the routes a test adds first (those win).
func fakeAPI(s *hostile.Server) { hostile.KubeAPI(s, "Secret", "secrets", "default", "s") }

// credential is one kind of kubeconfig user, and what of it a server may see.
type credential struct {
	name string
	user func(t *testing.T) kubeconfig.User
	// secrets are what must reach no other server, nor any message.
	secrets []string
}

func credentials() []credential {
	return []credential{
		{"token", func(*testing.T) kubeconfig.User { return kubeconfig.User{Token: staticToken} }, []string{staticToken}},
		{"token file", func(t *testing.T) kubeconfig.User {
			f := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(f, []byte(fileToken), 0o600); err != nil {
				t.Fatal(err)
			}
			return kubeconfig.User{TokenFile: f}
		}, []string{fileToken}},
		{"exec plugin", func(t *testing.T) kubeconfig.User {
			return kubeconfig.User{Exec: kubeconfig.ExecPlugin(t, execToken)}
		}, []string{execToken}},
		{"client certificate", func(t *testing.T) kubeconfig.User {
			cert, key := kubeconfig.ClientCert(t)
			return kubeconfig.User{ClientCert: cert, ClientKey: key}
		}, nil},
	}
}

// writeKubeconfig writes a kubeconfig whose context "test" (current) is server with user.
func writeKubeconfig(t *testing.T, server string, ca []byte, user kubeconfig.User) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := kubeconfig.Write(path, "test", kubeconfig.Context{Name: "test", Server: server, CA: ca, User: user}); err != nil {
		t.Fatal(err)
	}
	return path
}

// operations are the cluster commands, each as its *_cmd.go runs it through Open.
var operations = map[string]func(t *testing.T, r clustersupport.Request, warnings *bytes.Buffer) error{
	"apply":  func(t *testing.T, r clustersupport.Request, _ *bytes.Buffer) error { return run(t, r, applyIt) },
	"delete": func(t *testing.T, r clustersupport.Request, _ *bytes.Buffer) error { return run(t, r, deleteIt) },
	"diff":   func(t *testing.T, r clustersupport.Request, _ *bytes.Buffer) error { return run(t, r, diffIt) },
	"get": func(t *testing.T, r clustersupport.Request, _ *bytes.Buffer) error {
		r.Manifests, r.Writes = nil, false
		g, _, err := clustersupport.OpenGetter(t.Context(), r)
		if err == nil {
			_, err = g.Get(t.Context(), clustersupport.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "default", Name: "s"})
		}
		return err
	},
}

func applyIt(t *testing.T, s clustersupport.Session) error {
	return s.Apply(t.Context(), clustersupport.ApplyOptions{})
}
func deleteIt(t *testing.T, s clustersupport.Session) error { return s.Delete(t.Context(), false, nil) }
func diffIt(t *testing.T, s clustersupport.Session) error {
	_, err := s.Diff(t.Context(), clustersupport.DiffOptions{Name: "m.yaml"})
	return err
}

func run(t *testing.T, r clustersupport.Request, op func(*testing.T, clustersupport.Session) error) error {
	s, err := Open(t.Context(), r)
	if err != nil {
		return err
	}
	return op(t, s)
}

// request is a Request for the Secret through kubeconfig kc, writing through the explicit
// context "test".
func request(kc string, warnings *bytes.Buffer) clustersupport.Request {
	return clustersupport.Request{Manifests: []string{"-"}, Stdin: strings.NewReader(secretYAML), Kubeconfig: kc,
		Context: "test", ExplicitContext: true, Writes: true, Warnings: warnings}
}
