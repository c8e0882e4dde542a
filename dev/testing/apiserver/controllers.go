package apiserver

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// DefaultControllers are the controllers StartControllers runs when given none: the
// Deployment controller and the ReplicaSet controller it drives (no kubelet or scheduler run,
// so a Deployment of 0 replicas is the one that becomes available).
var DefaultControllers = []string{"deployment-controller", "replicaset-controller"}

// StartControllers starts kube-controller-manager (built by dev/scripts/install-apiserver.sh from
// the same k8s.io/kubernetes as kube-apiserver) against the server, running only controllers
// (default DefaultControllers), as the admin user, without leader election or a serving port.
// It waits until its /healthz answers and stops it with the server (Stop) or at the test's
// end. A missing binary fails the test saying how to build it.
func (s *Server) StartControllers(t testing.TB, controllers ...string) {
	t.Helper()
	if len(controllers) == 0 {
		controllers = DefaultControllers
	}
	bin := filepath.Join(BinDir(), "kube-controller-manager")
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("%v: no kube-controller-manager in %s: run dev/scripts/install-apiserver.sh (it builds it beside kube-apiserver)", ErrNotInstalled, BinDir())
	}
	ports, err := freePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	kcm, err := startProcess("kube-controller-manager", bin, filepath.Join(s.Dir, "kube-controller-manager.log"),
		"--kubeconfig="+s.Kubeconfig,
		"--authentication-kubeconfig="+s.Kubeconfig,
		"--authorization-kubeconfig="+s.Kubeconfig,
		"--controllers="+strings.Join(controllers, ","),
		"--leader-elect=false",
		"--use-service-account-credentials=false",
		"--bind-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", ports[0]),
		"--profiling=false",
	)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.controllers = kcm
	s.mu.Unlock()
	t.Cleanup(func() { kcm.stop(stopGrace) })
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	if err := waitHealthy(ctx, kcm, fmt.Sprintf("https://127.0.0.1:%d/healthz", ports[0])); err != nil {
		t.Fatalf("%v\n--- end of kube-controller-manager.log:\n%s", err, tail(kcm.log, 4<<10))
	}
}

// waitHealthy polls a component's /healthz (its own self-signed certificate: not verified,
// loopback only) until it answers 200, the process exits or ctx ends.
func waitHealthy(ctx context.Context, p *process, url string) error {
	c := insecureLoopbackClient()
	defer c.CloseIdleConnections()
	var last string
	for {
		if p.exited() {
			return fmt.Errorf("%s exited while starting: %v", p.name, p.err)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s was not healthy after %s: last %s: %s", p.name, readyTimeout, url, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// insecureLoopbackClient is for a component's health on 127.0.0.1 only: it serves a
// certificate of its own making, which nothing here can verify.
func insecureLoopbackClient() *http.Client {
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		Proxy:           nil,
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12}, //nolint:gosec // loopback health probe of a test process
	}}
}
