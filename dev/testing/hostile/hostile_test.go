package hostile

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
)

func TestRoutesAndRecords(t *testing.T) {
	other := New(t)
	s := New(t).
		Handle("GET", "/echo", EchoAuthorization(http.StatusForbidden)).
		Handle("", "/go/*", Redirect(other)).
		Handle("GET", "", Respond(http.StatusOK, "text/plain", "ok"))
	get := func(path string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, body := get("/echo"); resp.StatusCode != 403 || body != "refused Authorization: Bearer tok" {
		t.Errorf("/echo: %s %q", resp.Status, body)
	}
	if resp, body := get("/x"); resp.StatusCode != 200 || body != "ok" {
		t.Errorf("/x: %s %q", resp.Status, body)
	}
	if resp, _ := get("/go/a?b=c"); resp.StatusCode != 404 { // followed to other, which has no routes
		t.Errorf("/go/a: %s", resp.Status)
	}
	if got := other.Requests(); len(got) != 1 || got[0].Path != "/go/a" || got[0].RawQuery != "b=c" {
		t.Errorf("the other server received:\n%s", other.Seen())
	}
	if n := len(s.Requests()); n != 3 || s.Requests()[0].Header.Get("Authorization") != "Bearer tok" {
		t.Errorf("recorded %d requests:\n%s", n, s.Seen())
	}
}

func TestTLSRecordsClientCert(t *testing.T) {
	s := NewTLS(t).Handle("", "", Respond(200, "text/plain", "ok"))
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(s.CAPEM) {
		t.Fatal("CAPEM holds no certificate")
	}
	cert, err := tls.X509KeyPair(kubeconfig.ClientCert(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, withCert := range []bool{false, true} {
		cfg := &tls.Config{RootCAs: pool}
		if withCert {
			cfg.Certificates = []tls.Certificate{cert}
		}
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
		resp, err := c.Get(s.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	got := s.Requests()
	if len(got) != 2 || got[0].ClientCert || !got[1].ClientCert {
		t.Errorf("client certificates recorded:\n%s", s.Seen())
	}
	if !strings.HasPrefix(s.URL, "https://") {
		t.Errorf("URL %s", s.URL)
	}
}
