package cluster

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
)

// A server URL's userinfo (user:password@, TOKEN@) is printed nowhere: not where the session
// names its server, not in errors of the server's, nor of a server that cannot be reached.
func TestUserinfoNotPrinted(t *testing.T) {
	t.Setenv(AllowedContextsEnv, "")
	for _, userinfo := range []string{"admin:pa55word-secret", "tok3n-in-the-user-name"} {
		for _, c := range []struct {
			name, method, path string
			h                  http.Handler
			closed             bool
		}{
			{name: "403 on discovery", method: "GET", path: "/version", h: hostile.EchoAuthorization(403)},
			{name: "500 on apply", method: "PATCH", path: "/api/v1/namespaces/default/secrets/s", h: hostile.Respond(500, "text/plain", "boom")},
			{name: "redirect", method: "PATCH", path: "/api/v1/namespaces/default/secrets/s", h: http.RedirectHandler("https://"+userinfo+"@127.0.0.1:1/x", 307)},
			{name: "unreachable", closed: true},
		} {
			t.Run(userinfo+" "+c.name, func(t *testing.T) {
				api := hostile.NewTLS(t)
				if c.h != nil {
					api.Handle(c.method, c.path, c.h)
				}
				fakeAPI(api)
				server := strings.Replace(api.URL, "https://", "https://"+userinfo+"@", 1)
				r := request(writeKubeconfig(t, server, api.CAPEM, kubeconfig.User{}), nil)
				if c.closed {
					api.Close()
				}
				s, err := Open(t.Context(), r)
				var where string
				if err == nil {
					where = s.Where()
					err = s.Apply(t.Context(), clustersupport.ApplyOptions{})
				}
				if err == nil {
					t.Fatal("no error")
				}
				user, pw, _ := strings.Cut(userinfo, ":")
				for _, leak := range []string{user, pw, base64.StdEncoding.EncodeToString([]byte(userinfo))} {
					if leak != "" && strings.Contains(where+"\n"+err.Error(), leak) {
						t.Errorf("%q printed:\n%s\n%v", leak, where, err)
					}
				}
				if !strings.Contains(where+err.Error(), api.URL) { // apply_cmd.go prints Where() before the error
					t.Errorf("the error does not name the server %s: %s: %v", api.URL, where, err)
				}
			})
		}
	}
}
