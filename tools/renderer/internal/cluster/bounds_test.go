package cluster

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
)

// TestManyKeysLinear: a ConfigMap of 80,000 keys is read in linear time, before any request
// (kyaml's MarshalJSON decodes through go-yaml, which compares a mapping's keys pairwise:
// 26 s before), and sent as written.
func TestManyKeysLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide, namespace: n}\ndata:\n")
	for i := range 80000 {
		b.WriteString("  key-" + strconv.Itoa(i) + ": v\n")
	}
	start := cpuTime(t)
	objs, err := ReadManifests([]string{"-"}, strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if d := cpuTime(t) - start; d > 5*time.Second {
		t.Errorf("read in %.1f s of CPU, want well under 5 s", d.Seconds())
	}
	if m, _, _ := unstructured.NestedStringMap(objs[0].Object, "data"); len(m) != 80000 || m["key-79999"] != "v" {
		t.Errorf("got %d keys, want 80000", len(m))
	}
}

// cpuTime is the CPU time the process has used (a loaded machine does not fail the test).
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hang answers nothing until the client goes.
func hang() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
}

// endless answers 200 with a JSON body that never ends.
func endless() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"kind":"APIResourceList","groupVersion":"v1","resources":[`))
		chunk := []byte(strings.Repeat(`{"name":"x","kind":"X"},`, 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
}

// TestHostileServerBounded: a hostile server or credential source costs at most the
// command's deadline (here 3 s), and the error says which bound was hit and names the server
// or the credential, never "cannot reach" a server that answered.
func TestHostileServerBounded(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	const path = "/api/v1/namespaces/default/secrets/s"
	retryAfter := hostile.WithHeader("Retry-After", "999999", echoStatus(http.StatusTooManyRequests, "TooManyRequests", 0))
	big := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(big, bytes.Repeat([]byte("t"), MaxTokenBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, path string
		h                  http.Handler
		user               kubeconfig.User
		want               []string
	}{
		{"silent server", "GET", "/version", hang(), kubeconfig.User{Token: staticToken}, []string{"the command's deadline passed", "did not answer in time", "/version"}},
		{"silent on apply", "PATCH", path, hang(), kubeconfig.User{Token: staticToken}, []string{"the command's deadline passed", "did not answer in time", "Secret default/s"}},
		{"Retry-After 999999", "PATCH", path, retryAfter, kubeconfig.User{Token: staticToken}, []string{"429", "Retry-After: 999999 s", "past the deadline", "Secret default/s"}},
		{"endless body", "GET", "/api/v1", endless(), kubeconfig.User{Token: staticToken}, []string{"larger than", "/api/v1"}},
		{"HTML", "GET", "/api/v1", hostile.Respond(200, "text/html", "<html><body>Sign in</body></html>"), kubeconfig.User{Token: staticToken}, []string{"text/html", "not JSON", "/api/v1", "Sign in"}},
		{"invalid JSON on apply", "PATCH", path, hostile.Respond(200, "application/json", "{not json"), kubeconfig.User{Token: staticToken}, []string{"patch Secret default/s", "the API server https://", "context \"test\"", "not valid JSON"}},
		{"invalid JSON", "GET", "/api/v1", hostile.Respond(200, "application/json", "{not json"), kubeconfig.User{Token: staticToken}, []string{"/api/v1", "not valid JSON"}},
		{"token file /dev/zero", "", "", nil, kubeconfig.User{TokenFile: "/dev/zero"}, []string{"/dev/zero", "not a regular file"}},
		{"token file too large", "", "", nil, kubeconfig.User{TokenFile: big}, []string{big, "larger than"}},
		{"exec plugin floods", "", "", nil, kubeconfig.User{Exec: kubeconfig.ExecCommand("/bin/sh", "-c", "exec cat /dev/zero")}, []string{"exec credential plugin /bin/sh", "more than"}},
		{"exec plugin hangs", "", "", nil, kubeconfig.User{Exec: kubeconfig.ExecCommand("/bin/sh", "-c", "exec sleep 1000")}, []string{"exec credential plugin /bin/sh", "the command's deadline passed", "did not finish"}},
		{"exec plugin prints nonsense", "", "", nil, kubeconfig.User{Exec: kubeconfig.ExecCommand("/bin/sh", "-c", "echo '\x1b[2J nope'; echo oops >&2; exit 3")}, []string{"exec credential plugin /bin/sh", "oops", "exit status 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			api := hostile.NewTLS(t)
			if c.h != nil {
				api.Handle(c.method, c.path, c.h)
			}
			fakeAPI(api)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			start := time.Now()
			s, err := Open(ctx, request(writeKubeconfig(t, api.URL, api.CAPEM, c.user), nil))
			if err == nil {
				err = s.Apply(ctx, clustersupport.ApplyOptions{})
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %.1f s, want the deadline's 3 s and little more", d.Seconds())
			}
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q: %v", w, err)
				}
			}
			if strings.Contains(err.Error(), ErrUnreachable.Error()) {
				t.Errorf("a server that answered is said unreachable: %v", err)
			}
			if len(err.Error()) > 2<<10 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
		})
	}
}

// endlessList answers every list with 500 new Secrets and a continue token: a list that never
// ends.
func endlessList() http.Handler {
	page := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page++
		items := make([]map[string]any, 500)
		for i := range items {
			items[i] = map[string]any{"apiVersion": "v1", "kind": "Secret",
				"metadata": map[string]any{"name": "m-" + strconv.Itoa(page) + "-" + strconv.Itoa(i), "namespace": "default", "uid": "u"}}
		}
		hostile.JSON(200, map[string]any{"apiVersion": "v1", "kind": "SecretList",
			"metadata": map[string]any{"continue": "page-" + strconv.Itoa(page)}, "items": items}).ServeHTTP(w, r)
	})
}

// TestEndlessListBounded: an ApplySet's member list whose continue never ends is refused
// after MaxListItems, saying so, instead of growing until the deadline (25 MB a second).
func TestEndlessListBounded(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	api := hostile.NewTLS(t).
		Handle("GET", "/api/v1/namespaces/default/secrets/set", hostile.JSON(404, map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "NotFound", "code": 404})).
		Handle("GET", "/api/v1/namespaces/default/secrets", endlessList())
	fakeAPI(api)
	r := request(writeKubeconfig(t, api.URL, api.CAPEM, kubeconfig.User{Token: staticToken}), nil)
	r.ApplySet = "set"
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	s, err := Open(ctx, r)
	if err == nil {
		_, err = s.Diff(ctx, clustersupport.DiffOptions{Name: "m.yaml"})
	}
	if err == nil || !strings.Contains(err.Error(), "more than "+strconv.Itoa(MaxListItems)) || strings.Contains(err.Error(), "deadline") {
		t.Fatalf("error %v, want the list's bound", err)
	}
}
