// Package apiserver starts a real Kubernetes API server (kube-apiserver and etcd, built by
// dev/scripts/install-apiserver.sh) on 127.0.0.1 for tests: strict server-side dry runs,
// server-side apply, reading live objects. Each server gets free ports, its own credentials
// (a CA, a serving certificate, a service-account key pair, two bearer tokens) and a kubeconfig
// with two contexts: AdminContext (system:masters) and LimitedContext (may get, list and watch
// everything, nothing else). No controllers run unless StartControllers starts
// kube-controller-manager (controllers.go): else Deployments are stored, never rolled out,
// deleted namespaces are not finalized, and new namespaces get no default ServiceAccount
// unless made with CreateNamespace.
//
// Tests that need the server carry the build tag apiserver (go test -tags apiserver); plain
// `go test ./...` builds this package but never starts a server. See docs/apiserver.md.
package apiserver

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The contexts of the kubeconfig a Server writes, and their users.
const (
	AdminContext   = "admin"
	LimitedContext = "limited"
	AdminUser      = "krm-test-admin"
	LimitedUser    = "krm-test-limited"
)

// DefaultHome is where dev/scripts/install-apiserver.sh puts the binaries (under bin/) unless
// KRM_APISERVER_HOME or KRM_APISERVER_BIN says otherwise.
const DefaultHome = "/var/cache/rules_krm-apiserver"

// ErrNotInstalled is returned when kube-apiserver or etcd is not in BinDir.
var ErrNotInstalled = errors.New("the test API server is not installed")

// Bounds of starting and stopping.
const (
	readyTimeout = 60 * time.Second // start until /readyz answers ok
	stopGrace    = 10 * time.Second // SIGTERM until SIGKILL
	startTries   = 3                // starts when a port was taken between picking and binding
)

// Server is a running kube-apiserver and its etcd.
type Server struct {
	// URL is the API server's address, https://127.0.0.1:PORT.
	URL string
	// Kubeconfig is the path of a kubeconfig with the contexts AdminContext (current) and
	// LimitedContext.
	Kubeconfig string
	// CAFile holds the PEM certificate of the CA that signed the server's certificate; CAData
	// is its content.
	CAFile string
	CAData []byte
	// AdminToken and LimitedToken are the bearer tokens of AdminUser and LimitedUser.
	AdminToken, LimitedToken string
	// EtcdURL is etcd's client address, http://127.0.0.1:PORT.
	EtcdURL string
	// Dir holds the credentials, etcd's data and the logs (etcd.log, kube-apiserver.log).
	Dir string

	etcd, apiserver *process
	mu              sync.Mutex
	controllers     *process // kube-controller-manager, when StartControllers started it
	addrs           []string
	ownDir          bool
	stopOnce        sync.Once
	stopErr         error
}

// BinDir is the directory the harness takes kube-apiserver and etcd from: $KRM_APISERVER_BIN,
// else $KRM_APISERVER_HOME/bin, else DefaultHome/bin.
func BinDir() string {
	if d := os.Getenv("KRM_APISERVER_BIN"); d != "" {
		return d
	}
	if h := os.Getenv("KRM_APISERVER_HOME"); h != "" {
		return filepath.Join(h, "bin")
	}
	return filepath.Join(DefaultHome, "bin")
}

// binaries returns the paths of kube-apiserver and etcd, or an error wrapping ErrNotInstalled
// that says how to install them.
func binaries() (apiserver, etcd string, err error) {
	dir := BinDir()
	var missing []string
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return "", "", fmt.Errorf("%w: no %s in %s: run dev/scripts/install-apiserver.sh (it builds them there; KRM_APISERVER_BIN or KRM_APISERVER_HOME choose another directory)",
			ErrNotInstalled, strings.Join(missing, " or "), dir)
	}
	return filepath.Join(dir, "kube-apiserver"), filepath.Join(dir, "etcd"), nil
}

// Start starts a server for the test and stops it, and removes its files, when the test ends.
// It fails the test when the binaries are missing or the server does not become ready; the
// failure message holds the end of the server's logs. Tests that can share a server use Shared.
func Start(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), startTries*readyTimeout)
	defer cancel()
	s, err := StartProcess(ctx, dir)
	if err != nil {
		t.Fatalf("starting the test API server: %v", err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("test API server logs:\n%s", s.LogTail())
		}
		if err := s.Stop(); err != nil {
			t.Errorf("stopping the test API server: %v", err)
		}
	})
	return s
}

// StartProcess starts a server whose files go to dir, or to a new temporary directory that
// Stop removes when dir is "". ctx bounds the start only; the server runs until Stop. The
// caller must call Stop.
func StartProcess(ctx context.Context, dir string) (*Server, error) {
	apiserverBin, etcdBin, err := binaries()
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir}
	if dir == "" {
		if s.Dir, err = os.MkdirTemp("", "krm-apiserver-"); err != nil {
			return nil, fmt.Errorf("creating the server's directory: %w", err)
		}
		s.ownDir = true
	}
	creds, err := writeCredentials(s.Dir)
	if err != nil {
		s.removeDir()
		return nil, err
	}
	s.CAFile, s.CAData = creds.caCertFile, creds.caPEM
	s.AdminToken, s.LimitedToken = creds.adminToken, creds.limToken

	for try := 1; ; try++ {
		err = s.launch(ctx, apiserverBin, etcdBin, creds, try)
		if err == nil {
			break
		}
		portTaken := s.portTaken()
		s.stopProcesses()
		if !portTaken || try == startTries {
			err = fmt.Errorf("%w\n%s", err, s.LogTail())
			s.removeDir()
			return nil, err
		}
	}
	if err := s.grantLimited(ctx); err != nil {
		err = fmt.Errorf("%w\n%s", err, s.LogTail())
		s.Stop()
		return nil, err
	}
	s.Kubeconfig = filepath.Join(s.Dir, "kubeconfig")
	if err := writeKubeconfig(s.Kubeconfig, s.URL, s.CAData, s.AdminToken, s.LimitedToken); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// launch starts etcd and kube-apiserver on free ports and waits until the API server is ready.
func (s *Server) launch(ctx context.Context, apiserverBin, etcdBin string, creds *credentials, try int) error {
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	clientURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	s.EtcdURL = clientURL
	s.URL = fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	s.addrs = nil
	for _, p := range ports {
		s.addrs = append(s.addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	}
	suffix := ""
	if try > 1 {
		suffix = "-" + strconv.Itoa(try)
	}

	s.etcd, err = startProcess("etcd", etcdBin, filepath.Join(s.Dir, "etcd"+suffix+".log"),
		"--name=default",
		"--data-dir="+filepath.Join(s.Dir, "etcd-data"+suffix),
		"--listen-client-urls="+clientURL,
		"--advertise-client-urls="+clientURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=default="+peerURL,
		"--unsafe-no-fsync", // test data: no need to survive a power cut
	)
	if err != nil {
		return err
	}
	s.apiserver, err = startProcess("kube-apiserver", apiserverBin, filepath.Join(s.Dir, "kube-apiserver"+suffix+".log"),
		"--etcd-servers="+clientURL,
		"--bind-address=127.0.0.1",
		// Loopback only; the endpoint reconciler refuses a loopback address for the
		// kubernetes Service's endpoints, and nothing here needs them.
		"--advertise-address=127.0.0.1",
		"--endpoint-reconciler-type=none",
		"--secure-port="+strconv.Itoa(ports[2]),
		"--cert-dir="+filepath.Join(s.Dir, "certs"),
		"--tls-cert-file="+creds.certFile,
		"--tls-private-key-file="+creds.keyFile,
		"--token-auth-file="+creds.tokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+creds.saPubFile,
		"--service-account-signing-key-file="+creds.saKeyFile,
		"--service-cluster-ip-range=10.96.0.0/16",
		"--profiling=false",
	)
	if err != nil {
		return err
	}
	return s.waitReady(ctx)
}

// freePorts returns n distinct ports that were free on 127.0.0.1 a moment ago.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port on 127.0.0.1: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Client returns an HTTP client that trusts the server's CA and uses no proxy; requests
// authenticate with a header "Authorization: Bearer " + AdminToken (or LimitedToken).
func (s *Server) Client() *http.Client { return s.client() }

// client returns an HTTP client that trusts the server's CA and uses no proxy.
func (s *Server) client() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CAData)
	return &http.Client{
		Timeout: 5 * time.Second,
		Transport: &http.Transport{
			Proxy:           nil,
			TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		},
	}
}

// waitReady polls /readyz until it answers 200, a process exits, readyTimeout passes or ctx
// ends.
func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	c := s.client()
	defer c.CloseIdleConnections()
	var last string
	for {
		for _, p := range []*process{s.etcd, s.apiserver} {
			if p.exited() {
				return fmt.Errorf("%s exited while the API server was starting: %v", p.name, p.err)
			}
		}
		code, body, err := s.do(ctx, c, http.MethodGet, "/readyz", s.AdminToken, nil)
		switch {
		case err == nil && code == http.StatusOK:
			return nil
		case err != nil:
			last = err.Error()
		default:
			last = fmt.Sprintf("%d %s", code, strings.TrimSpace(body))
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the API server at %s was not ready after %s: last /readyz: %s", s.URL, readyTimeout, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// do sends one request with a bearer token and returns the status code and body.
func (s *Server) do(ctx context.Context, c *http.Client, method, path, token string, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b), err
}

// limitedRBAC lets LimitedUser get, list and watch every resource and nothing else.
var limitedRBAC = []struct{ path, body string }{
	{"/apis/rbac.authorization.k8s.io/v1/clusterroles", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
"metadata":{"name":"krm-test-read-only"},
"rules":[{"apiGroups":["*"],"resources":["*"],"verbs":["get","list","watch"]}]}`},
	{"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",
"metadata":{"name":"krm-test-read-only"},
"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"krm-test-read-only"},
"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"` + LimitedUser + `"}]}`},
}

// grantLimited creates limitedRBAC and waits until the authorizer lets LimitedUser list
// namespaces (RBAC reads bindings through an informer: not at once).
func (s *Server) grantLimited(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	c := s.client()
	defer c.CloseIdleConnections()
	for _, o := range limitedRBAC {
		if err := s.create(ctx, c, o.path, o.body); err != nil {
			return fmt.Errorf("granting %s read access: %w", LimitedUser, err)
		}
	}
	for {
		code, body, err := s.do(ctx, c, http.MethodGet, "/api/v1/namespaces", s.LimitedToken, nil)
		if err == nil && code == http.StatusOK {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s cannot list namespaces after being granted read access: %d %s %v", LimitedUser, code, body, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// CreateNamespace creates a namespace and its "default" ServiceAccount, as a cluster's
// controller manager would (none runs here): without it the API server refuses Pods in the
// namespace, dry runs too. Either that exists already is no error.
func (s *Server) CreateNamespace(ctx context.Context, name string) error {
	c := s.client()
	defer c.CloseIdleConnections()
	for _, o := range []struct{ path, body string }{
		{"/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":` + strconv.Quote(name) + `}}`},
		{"/api/v1/namespaces/" + url.PathEscape(name) + "/serviceaccounts", `{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`},
	} {
		if err := s.create(ctx, c, o.path, o.body); err != nil {
			return fmt.Errorf("creating namespace %s: %w", name, err)
		}
	}
	return nil
}

// create POSTs an object as AdminUser; that it exists already is no error.
func (s *Server) create(ctx context.Context, c *http.Client, path, body string) error {
	code, resp, err := s.do(ctx, c, http.MethodPost, path, s.AdminToken, []byte(body))
	if err != nil {
		return err
	}
	if code != http.StatusCreated && code != http.StatusConflict {
		return fmt.Errorf("POST %s: %d %s", path, code, strings.TrimSpace(resp))
	}
	return nil
}

// Addrs returns the host:port addresses the server's processes listen on: etcd's client and
// peer ports and the API server's port.
func (s *Server) Addrs() []string { return append([]string(nil), s.addrs...) }

// PIDs returns the process ids of etcd and kube-apiserver.
func (s *Server) PIDs() []int {
	var pids []int
	for _, p := range []*process{s.etcd, s.apiserver} {
		if p != nil {
			pids = append(pids, p.cmd.Process.Pid)
		}
	}
	return pids
}

// Stop stops kube-apiserver, then etcd (SIGTERM, then SIGKILL after a grace period), waits
// until both have exited, and removes the server's directory if StartProcess made it. It may
// be called more than once.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.stopProcesses()
		s.stopErr = s.removeDir()
	})
	return s.stopErr
}

func (s *Server) stopProcesses() {
	s.mu.Lock()
	kcm := s.controllers
	s.mu.Unlock()
	for _, p := range []*process{kcm, s.apiserver, s.etcd} {
		if p != nil {
			p.stop(stopGrace)
		}
	}
}

func (s *Server) removeDir() error {
	if !s.ownDir {
		return nil
	}
	if err := os.RemoveAll(s.Dir); err != nil {
		return fmt.Errorf("removing the server's directory: %w", err)
	}
	return nil
}

// portTaken reports whether a process failed because its port was taken meanwhile.
func (s *Server) portTaken() bool {
	for _, p := range []*process{s.etcd, s.apiserver} {
		if p != nil && strings.Contains(tail(p.log, 64<<10), "address already in use") {
			return true
		}
	}
	return false
}

// LogTail returns the last lines of etcd's and kube-apiserver's logs (and
// kube-controller-manager's, when it runs).
func (s *Server) LogTail() string {
	var b strings.Builder
	s.mu.Lock()
	kcm := s.controllers
	s.mu.Unlock()
	for _, p := range []*process{s.etcd, s.apiserver, kcm} {
		if p != nil {
			fmt.Fprintf(&b, "--- end of %s (%s):\n%s\n", filepath.Base(p.log), p.log, tail(p.log, 4<<10))
		}
	}
	return b.String()
}

// tail returns the last n bytes of a file, from the start of a line.
func tail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err.Error()
	}
	off := max(fi.Size()-n, 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return err.Error()
	}
	if off > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return string(b)
}

// process is a started etcd or kube-apiserver whose output goes to a log file.
type process struct {
	name string
	log  string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited and err is set
	err  error
}

func startProcess(name, bin, log string, args ...string) (*process, error) {
	f, err := os.OpenFile(log, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the log of %s: %w", name, err)
	}
	p := &process{name: name, log: log, cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.SysProcAttr = sysProcAttr()
	if err := p.cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM, then SIGKILL when the process has not exited after grace, and waits.
func (p *process) stop(grace time.Duration) {
	if p.exited() {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return
	case <-time.After(grace):
	}
	_ = p.cmd.Process.Kill()
	select {
	case <-p.done:
	case <-time.After(grace):
		// Not reaped after SIGKILL (a process stuck in the kernel): give up waiting.
	}
}
