package cli

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// What each cluster command prints (docs/cli.md#credentials): a hostile API server, reached
// through a URL with userinfo and an exec plugin's token, that quotes the token in a 403,
// or redirects to another server, gets neither printed, and the other server nothing.
func TestClusterCommandsCredentials(t *testing.T) {
	t.Setenv(clustersupport.AllowedContextsEnv, "")
	const token, userinfo = "exec-token-for-the-cli-0123", "admin:pa55word-of-the-url"
	secret := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: default\ndata:\n  k: c2VjcmV0LXZhbHVl\n"
	dir := tree(t, map[string]string{"app/kustomization.yaml": "resources:\n- s.yaml\n", "app/s.yaml": secret})
	manifests, prov := filepath.Join(dir, "app_manifests.yaml"), filepath.Join(dir, "app.provenance.json")
	if code, _, stderr := runCLI("build", filepath.Join(dir, "app"), "-o", manifests, "--provenance-manifest", prov); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	const path = "/api/v1/namespaces/default/secrets/s"
	commands := map[string][]string{
		"apply":           {"apply", manifests},
		"delete":          {"delete", manifests},
		"diff --cluster":  {"diff", "--cluster", manifests},
		"trace --context": {"trace", "Secret/default/s", "-m", prov},
	}
	for name, args := range commands {
		method := map[string]string{"apply": "PATCH", "delete": "DELETE", "diff --cluster": "PATCH", "trace --context": "GET"}[name]
		for _, c := range []struct {
			what string
			h    func(other *hostile.Server) http.Handler
			want string
		}{
			{"403 quoting the token", func(*hostile.Server) http.Handler { return hostile.EchoAuthorization(403) }, scrub.Placeholder},
			{"redirect", hostile.Redirect, "krm does not follow redirects"},
		} {
			t.Run(name+" "+c.what, func(t *testing.T) {
				other := hostile.KubeAPI(hostile.NewTLS(t), "Secret", "secrets", "default", "s")
				api := hostile.KubeAPI(hostile.NewTLS(t).Handle(method, path, c.h(other)), "Secret", "secrets", "default", "s")
				kc := filepath.Join(t.TempDir(), "kubeconfig")
				server := strings.Replace(api.URL, "https://", "https://"+userinfo+"@", 1)
				if err := kubeconfig.Write(kc, "test", kubeconfig.Context{Name: "test", Server: server, CA: api.CAPEM,
					User: kubeconfig.User{Exec: kubeconfig.ExecPlugin(t, token)}}); err != nil {
					t.Fatal(err)
				}
				code, stdout, stderr := runCLI(append(args, "--kubeconfig", kc, "--context", "test")...)
				out := stdout + stderr
				if code == 0 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, api.URL) {
					t.Errorf("exit %d, want an error naming %s and saying %q:\n%s", code, api.URL, c.want, out)
				}
				for _, leak := range []string{token, "pa55word-of-the-url", "admin:"} {
					if strings.Contains(out, leak) {
						t.Errorf("%q printed:\n%s", leak, out)
					}
				}
				if len(other.Requests()) != 0 {
					t.Errorf("the server redirected to received:\n%s", other.Seen())
				}
			})
		}
	}
	// A context apply and delete may not use: exit 2, and the server hears nothing.
	for _, cmd := range []string{"apply", "delete"} {
		api := hostile.KubeAPI(hostile.NewTLS(t), "Secret", "secrets", "default", "s")
		plugin := kubeconfig.ExecPlugin(t, token)
		kc := filepath.Join(t.TempDir(), "kubeconfig")
		if err := kubeconfig.Write(kc, "test", kubeconfig.Context{Name: "test", Server: api.URL, CA: api.CAPEM, User: kubeconfig.User{Exec: plugin}}); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(cmd, manifests, "--kubeconfig", kc)
		if code != 2 || !strings.Contains(stderr, "name the cluster with --context") || len(api.Requests()) != 0 || plugin.Runs() != 0 {
			t.Errorf("%s through the current context: exit %d, plugin runs %d, %s; the server received:\n%s", cmd, code, plugin.Runs(), stderr, api.Seen())
		}
	}
}
