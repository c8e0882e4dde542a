package cluster

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
)

// An API server that redirects (307) any request of any command to another server gets an
// error: nothing reaches the other server, neither the credentials nor the Secret.
func TestRedirectRefused(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	for _, c := range []struct{ op, method, path string }{
		{"apply", "GET", "/version"},
		{"apply", "GET", "/api/v1"},
		{"apply", "GET", "/api/v1/namespaces/default/secrets/s"},
		{"apply", "PATCH", "/api/v1/namespaces/default/secrets/s"},
		{"delete", "DELETE", "/api/v1/namespaces/default/secrets/s"},
		{"diff", "PATCH", "/api/v1/namespaces/default/secrets/s"},
		{"get", "GET", "/api/v1/namespaces/default/secrets/s"},
	} {
		for _, cred := range credentials() {
			t.Run(c.op+" "+c.method+" "+c.path+" "+cred.name, func(t *testing.T) {
				other := hostile.NewTLS(t)
				fakeAPI(other)
				api := hostile.NewTLS(t).Handle(c.method, c.path, hostile.Redirect(other))
				fakeAPI(api)
				var warnings bytes.Buffer
				err := operations[c.op](t, request(writeKubeconfig(t, api.URL, api.CAPEM, cred.user(t)), &warnings), &warnings)
				if len(other.Requests()) != 0 {
					t.Errorf("the server redirected to received:\n%s", other.Seen())
				}
				if err == nil || !strings.Contains(err.Error(), "API server "+api.URL+" redirected to "+other.URL+c.path) ||
					!strings.Contains(err.Error(), "krm does not follow redirects") {
					t.Errorf("error: %v", err)

				}
			})
		}
	}
}
