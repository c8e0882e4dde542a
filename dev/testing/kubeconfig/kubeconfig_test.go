package kubeconfig

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	ServeExecPlugin()
	os.Exit(m.Run())
}

// The plugin entry runs this binary, which prints the ExecCredential and counts the run.
func TestExecPlugin(t *testing.T) {
	e := ExecPlugin(t, "tok-from-plugin")
	u := e.entry()
	cmd := exec.Command(u.Command, u.Args...)
	for _, v := range u.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var cred struct {
		Kind   string
		Status struct{ Token string }
	}
	if err := json.Unmarshal(out, &cred); err != nil || cred.Kind != "ExecCredential" || cred.Status.Token != "tok-from-plugin" {
		t.Errorf("plugin printed %s (%v)", out, err)
	}
	if e.Runs() != 1 {
		t.Errorf("Runs() = %d after one run", e.Runs())
	}
}

func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	cert, key := ClientCert(t)
	err := Write(path, "a",
		Context{Name: "a", Server: "https://127.0.0.1:1", CA: []byte("CA"), User: User{Token: "t"}},
		Context{Name: "b", Server: "http://127.0.0.1:2", Namespace: "ns", User: User{ClientCert: cert, ClientKey: key}},
		Context{Name: "c", Server: "http://127.0.0.1:3", User: User{Exec: ExecPlugin(t, "x")}})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{`"current-context": "a"`, `"token": "t"`, `"namespace": "ns"`, `"client-key-data"`, `"interactiveMode": "Never"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("kubeconfig lacks %s:\n%s", want, data)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}
