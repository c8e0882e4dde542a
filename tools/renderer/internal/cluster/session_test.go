package cluster

import (
	"errors"
	"io"
	"os"
	"testing"

	"k8s.io/klog/v2"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
)

// A context the command may not write through is refused before any request: no discovery,
// no token sent, no exec plugin run.
func TestContextCheckedBeforeConnecting(t *testing.T) {
	for _, c := range []struct {
		name     string
		env      string
		explicit bool
		allowed  []string
	}{
		{name: "current context, no allow-list"},
		{name: "explicit context outside --allowed-context", explicit: true, allowed: []string{"dev"}},
		{name: "explicit context outside the environment's list", explicit: true, env: "dev,staging"},
		{name: "current context outside the environment's list", env: "dev"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(AllowedContextsEnv, c.env)
			api := hostile.NewTLS(t)
			fakeAPI(api)
			plugin := kubeconfig.ExecPlugin(t, execToken)
			r := request(writeKubeconfig(t, api.URL, api.CAPEM, kubeconfig.User{Exec: plugin}), nil)
			r.ExplicitContext, r.Allowed = c.explicit, c.allowed
			if !c.explicit {
				r.Context = ""
			}
			_, err := Open(t.Context(), r)
			if !errors.Is(err, ErrContext) {
				t.Errorf("Open: %v, want %v", err, ErrContext)
			}
			if len(api.Requests()) != 0 || plugin.Runs() != 0 {
				t.Errorf("before refusing the context: the exec plugin ran %d times; the server received:\n%s", plugin.Runs(), api.Seen())
			}
		})
	}
	// The same request through an allowed context does reach the server and run the plugin.
	t.Setenv(AllowedContextsEnv, "")
	api := hostile.NewTLS(t)
	fakeAPI(api)
	plugin := kubeconfig.ExecPlugin(t, execToken)
	if _, err := Open(t.Context(), request(writeKubeconfig(t, api.URL, api.CAPEM, kubeconfig.User{Exec: plugin}), nil)); err != nil {
		t.Fatal(err)
	}
	if len(api.Requests()) == 0 || plugin.Runs() == 0 {
		t.Errorf("an allowed context: plugin runs %d, requests:\n%s", plugin.Runs(), api.Seen())
	}
}

// TestKlogSilenced: what client-go logs through klog reaches no stream (krm's error says it
// once, naming the server).
func TestKlogSilenced(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	klog.ErrorS(errors.New("boom"), "Unexpected error when reading response body")
	klog.Error("another line")
	klog.Flush()
	os.Stderr = stderr
	w.Close()
	out, _ := io.ReadAll(r)
	if len(out) > 0 {
		t.Errorf("klog printed:\n%s", out)
	}
}
