package apiserver

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestMissingBinariesSayHowToInstall(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KRM_APISERVER_BIN", dir)
	_, err := StartProcess(t.Context(), t.TempDir())
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("StartProcess without binaries: got %v, want ErrNotInstalled", err)
	}
	for _, want := range []string{"kube-apiserver or etcd", dir, "run dev/scripts/install-apiserver.sh"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

// A process that exits while the server starts fails the start at once with the end of its
// log, and the other process is stopped.
func TestStartFailsWithLogTail(t *testing.T) {
	bin := t.TempDir()
	pidFile := filepath.Join(bin, "kube-apiserver.pid")
	for name, script := range map[string]string{
		// Exits once kube-apiserver has started (at most 5 s later).
		"etcd": "for i in $(seq 100); do [ -s " + pidFile + " ] && break; sleep 0.05; done\n" +
			"echo 'etcd: cannot start: disk on fire' >&2\nexit 3\n",
		"kube-apiserver": "echo $$ >" + pidFile + "\nexec sleep 60\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("KRM_APISERVER_BIN", bin)
	_, err := StartProcess(t.Context(), t.TempDir())
	if err == nil {
		t.Fatal("StartProcess with an etcd that exits: no error")
	}
	for _, want := range []string{"etcd exited while the API server was starting", "exit status 3", "etcd: cannot start: disk on fire"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kube-apiserver (pid %d) after the failed start: kill -0 says %v, want no such process", pid, err)
	}
}

func TestBinDir(t *testing.T) {
	t.Setenv("KRM_APISERVER_BIN", "")
	t.Setenv("KRM_APISERVER_HOME", "")
	if got, want := BinDir(), "/var/cache/rules_krm-apiserver/bin"; got != want {
		t.Errorf("BinDir() = %q, want %q", got, want)
	}
	t.Setenv("KRM_APISERVER_HOME", "/h")
	if got, want := BinDir(), "/h/bin"; got != want {
		t.Errorf("BinDir() with KRM_APISERVER_HOME = %q, want %q", got, want)
	}
	t.Setenv("KRM_APISERVER_BIN", "/b")
	if got, want := BinDir(), "/b"; got != want {
		t.Errorf("BinDir() with KRM_APISERVER_BIN = %q, want %q", got, want)
	}
}

// The serving certificate is valid for 127.0.0.1 under the CA; the service-account key pair
// and the token file are what kube-apiserver reads.
func TestCredentials(t *testing.T) {
	dir := t.TempDir()
	c, err := writeCredentials(dir)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.caPEM) {
		t.Fatal("the CA PEM holds no certificate")
	}
	cert := parseCert(t, c.certFile)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err != nil {
		t.Errorf("the serving certificate does not verify for 127.0.0.1: %v", err)
	}
	if _, err := x509.ParsePKCS1PrivateKey(pemBlock(t, c.saKeyFile).Bytes); err != nil {
		t.Errorf("service-account key: %v", err)
	}
	if _, err := x509.ParsePKIXPublicKey(pemBlock(t, c.saPubFile).Bytes); err != nil {
		t.Errorf("service-account public key: %v", err)
	}
	tokens, err := os.ReadFile(c.tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	want := c.adminToken + "," + AdminUser + "," + AdminUser + ",system:masters\n" +
		c.limToken + "," + LimitedUser + "," + LimitedUser + "\n"
	if string(tokens) != want {
		t.Errorf("token file:\n%s\nwant:\n%s", tokens, want)
	}
	if c.adminToken == c.limToken || len(c.adminToken) != 64 {
		t.Errorf("tokens %q and %q: want two different 64-digit tokens", c.adminToken, c.limToken)
	}
}

// The kubeconfig: one cluster with the CA inline, two contexts, the admin one current. (The
// apiserver-tagged tests connect through it with client-go.)
func TestKubeconfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := writeKubeconfig(path, "https://127.0.0.1:1234", []byte("CA"), "a", "l"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// What the test reads of the kubeconfig.
	var kc struct {
		CurrentContext string `json:"current-context"`
		Clusters       []struct {
			Name    string
			Cluster struct {
				Server                   string
				CertificateAuthorityData []byte `json:"certificate-authority-data"`
			}
		}
		Users []struct {
			Name string
			User struct{ Token string }
		}
		Contexts []struct {
			Name    string
			Context struct{ Cluster, User string }
		}
	}
	if err := json.Unmarshal(data, &kc); err != nil {
		t.Fatal(err)
	}
	if kc.CurrentContext != AdminContext || len(kc.Clusters) != 1 || len(kc.Contexts) != 2 || len(kc.Users) != 2 {
		t.Fatalf("kubeconfig:\n%s", data)
	}
	if c := kc.Clusters[0].Cluster; c.Server != "https://127.0.0.1:1234" || string(c.CertificateAuthorityData) != "CA" {
		t.Errorf("cluster: server %q, CA %q", c.Server, c.CertificateAuthorityData)
	}
	want := map[string][2]string{AdminContext: {AdminUser, "a"}, LimitedContext: {LimitedUser, "l"}}
	tokens := map[string]string{}
	for _, u := range kc.Users {
		tokens[u.Name] = u.User.Token
	}
	for _, c := range kc.Contexts {
		w := want[c.Name]
		if c.Context.Cluster != kc.Clusters[0].Name || c.Context.User != w[0] || tokens[w[0]] != w[1] {
			t.Errorf("context %s: cluster %q, user %q with token %q", c.Name, c.Context.Cluster, c.Context.User, tokens[c.Context.User])
		}
	}
	if !strings.Contains(string(data), `"certificate-authority-data": "Q0E="`) {
		t.Errorf("the CA is not inline and base64-encoded:\n%s", data)
	}
}

func parseCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	cert, err := x509.ParseCertificate(pemBlock(t, path).Bytes)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cert
}

func pemBlock(t *testing.T, path string) *pem.Block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pem.Decode(data)
	if b == nil {
		t.Fatalf("%s holds no PEM block", path)
	}
	return b
}
