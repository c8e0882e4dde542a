package cluster

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// The credentials a kubeconfig names are read within bounds: client-go reads a token file
// whole (/dev/zero never ends) and runs an exec credential plugin with no deadline and no
// bound on what it prints. krm checks the token file first and runs the plugin itself, once
// per command (its credential is then static: a command is shorter than its lifetime).

// ExecTimeout bounds one run of an exec credential plugin (the command's deadline too).
const ExecTimeout = 60 * time.Second

// checkTokenFile refuses a token file that is not a regular file or is over MaxTokenBytes.
func checkTokenFile(context, path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("context %q: token file: %w", context, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("context %q: token file %s is not a regular file", context, path)
	}
	if st.Size() > MaxTokenBytes {
		return fmt.Errorf("context %q: token file %s is larger than %d bytes", context, path, MaxTokenBytes)
	}
	return nil
}

// execCredential runs rc's exec credential plugin, within ctx and ExecTimeout, reading at
// most MaxTokenBytes of its output, and returns rc with the credential it printed in place of
// the plugin.
func execCredential(ctx context.Context, kcContext string, rc *rest.Config) (*rest.Config, error) {
	ep := rc.ExecProvider
	what := fmt.Sprintf("context %q: exec credential plugin %s", kcContext, ep.Command)
	if ep.InteractiveMode == clientcmdapi.AlwaysExecInteractiveMode {
		return nil, fmt.Errorf("%s: it needs a terminal (interactiveMode Always), and krm runs it without one", what)
	}
	info := map[string]any{"apiVersion": ep.APIVersion, "kind": "ExecCredential", "spec": map[string]any{"interactive": false}}
	if ep.ProvideClusterInfo {
		cluster := map[string]any{"server": rc.Host, "tls-server-name": rc.ServerName, "insecure-skip-tls-verify": rc.Insecure}
		if len(rc.CAData) > 0 {
			cluster["certificate-authority-data"] = base64.StdEncoding.EncodeToString(rc.CAData)
		}
		info["spec"].(map[string]any)["cluster"] = cluster
	}
	infoJSON, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, ExecTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, ep.Command, ep.Args...)
	cmd.Env = os.Environ()
	for _, e := range ep.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	cmd.Env = append(cmd.Env, "KUBERNETES_EXEC_INFO="+string(infoJSON))
	cmd.WaitDelay = time.Second // a child that keeps the pipes open
	stdout := &boundedBuffer{max: MaxTokenBytes, stop: cancel}
	stderr := &boundedBuffer{max: 4 << 10, stop: cancel}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
	switch {
	case stdout.over:
		return nil, fmt.Errorf("%s: printed more than %d bytes", what, MaxTokenBytes)
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("%s: %w: it did not finish within %s or the command's deadline", what, context.DeadlineExceeded, ExecTimeout)
	case errors.Is(err, exec.ErrNotFound) && ep.InstallHint != "":
		return nil, fmt.Errorf("%s: %v\n%s", what, err, escape.Text(scrub.Message(ep.InstallHint)))
	case err != nil:
		return nil, fmt.Errorf("%s: %v%s", what, err, said(stderr.String()))
	}
	var cred struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Status     *struct {
			Token                 string `json:"token"`
			ClientCertificateData string `json:"clientCertificateData"`
			ClientKeyData         string `json:"clientKeyData"`
		} `json:"status"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &cred); err != nil {
		return nil, fmt.Errorf("%s: its output is not an ExecCredential (JSON): %v%s", what, err, said(stderr.String()))
	}
	switch st := cred.Status; {
	case cred.APIVersion != ep.APIVersion:
		return nil, fmt.Errorf("%s: configured for API version %s, it printed %q", what, ep.APIVersion, escape.Line(scrub.Message(cred.APIVersion)))
	case st == nil || st.Token == "" && st.ClientCertificateData == "":
		return nil, fmt.Errorf("%s: it printed no token and no client certificate", what)
	case (st.ClientCertificateData == "") != (st.ClientKeyData == ""):
		return nil, fmt.Errorf("%s: it printed a client certificate or key, not both", what)
	}
	out := rest.CopyConfig(rc)
	out.ExecProvider = nil
	out.BearerToken = cred.Status.Token
	if cred.Status.ClientCertificateData != "" {
		out.CertData, out.KeyData = []byte(cred.Status.ClientCertificateData), []byte(cred.Status.ClientKeyData)
		out.CertFile, out.KeyFile = "", ""
	}
	return out, nil
}

// said is a plugin's stderr as the end of an error: its last lines, bounded and escaped.
func said(stderr string) string {
	stderr = strings.TrimSpace(stderr)
	if stderr == "" {
		return ""
	}
	return ": it said: " + escape.Text(scrub.Message(stderr))
}

// boundedBuffer keeps the first max bytes written; past them it notes the overflow and
// stops the plugin (a flood would otherwise block on the pipe until the deadline).
// (The buffer is a field, not embedded: an embedded bytes.Buffer's ReadFrom would let
// io.Copy, as os/exec uses it, fill it past max.)
type boundedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
	stop func()
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		b.over = true
		b.stop()
		return 0, fmt.Errorf("more than %d bytes", b.max)
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) Bytes() []byte  { return b.buf.Bytes() }
func (b *boundedBuffer) String() string { return b.buf.String() }
