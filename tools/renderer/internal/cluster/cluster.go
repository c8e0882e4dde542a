// Package cluster talks to a Kubernetes API server for `krm apply`, `krm delete` and
// `krm diff --cluster`: it loads the kubeconfig and context (client-go's clientcmd), maps kinds
// to resources from discovery, applies rendered objects server-side with the field manager
// "krm" (CRDs and Namespaces first, waited for), tracks them in an ApplySet to prune what a
// render no longer holds, deletes them, and diffs them against a server-side dry run.
//
// Everything read from outside is bounded: manifests and kubeconfigs as krm diff's inputs
// (yamlread.Nodes: size, nodes, depth, no YAML aliases), every API response body by MaxResponseBytes,
// every request by RequestTimeout. Credentials stay with the server they are for: a redirect
// is refused (transport.go), and a context apply or delete may not use is refused before
// anything is sent (Open).
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/clustersupport"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/yamlread"
)

// FieldManager is the field manager of every apply: the fields krm sets are owned by "krm".
const FieldManager = "krm"

// Bounds of what the API server sends and how long a request may take.
const (
	MaxResponseBytes  = 64 << 20
	MaxKubeconfigSize = 16 << 20
	RequestTimeout    = 60 * time.Second
	MaxTokenBytes     = 1 << 20 // a token file, an exec credential plugin's output
	MaxListItems      = 200000  // the objects of one list, all its pages (an ApplySet's members of one kind and namespace)
)

// AllowedContextsEnv names the environment variable listing the contexts apply and delete
// may use without --context (comma-separated).
const AllowedContextsEnv = clustersupport.AllowedContextsEnv

// Errors callers can tell apart.
var (
	ErrUnreachable = errors.New("cannot reach the API server")
	ErrContext     = clustersupport.ErrContext
	ErrConflict    = errors.New("field manager conflict")
	ErrForbidden   = errors.New("forbidden")
)

// Config says which cluster to talk to, as kubectl's flags do.
type Config struct {
	// Kubeconfig is --kubeconfig: one file. Empty: $KUBECONFIG (a list of files, merged), else
	// ~/.kube/config.
	Kubeconfig string
	// KubeconfigBase, if set, is the directory that a relative Kubeconfig and the relative files
	// of $KUBECONFIG are relative to, instead of the working directory.
	KubeconfigBase string
	// Context is --context; empty: the kubeconfig's current context.
	Context string
	// Warnings receives the API server's warnings (deprecated APIs, ...); nil drops them.
	Warnings io.Writer
}

// Client is a connection to one API server.
type Client struct {
	// Context is the kubeconfig context in use, Server its API server's URL without userinfo
	// and Namespace its default namespace ("default" unless the context names one).
	Context, Server, Namespace string

	base   string // Target.base
	dyn    dynamic.Interface
	http   *http.Client
	mapper *mapper
}

// Target is a context of the kubeconfig, resolved without the network: nothing has been sent
// to its server and no credential plugin has run, so a context the command may not use can
// be refused first (Open).
type Target struct {
	// Context is the kubeconfig context, Server its API server's URL as messages name it
	// (without userinfo) and Namespace its default namespace ("default" unless the context
	// names one).
	Context, Server, Namespace string

	base string // the server's URL as written, userinfo and all: requests go there
	rc   *rest.Config
}

// Resolve loads the kubeconfig and selects the context, reading files only.
func Resolve(cfg Config) (*Target, error) {
	rules := loadingRules(cfg)
	if err := checkKubeconfigs(rules); err != nil {
		return nil, err
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: cfg.Context})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	name := cfg.Context
	if name == "" {
		name = raw.CurrentContext
	}
	if name == "" {
		return nil, fmt.Errorf("the kubeconfig (%s) has no current context: name one with --context", kubeconfigFiles(rules))
	}
	if _, ok := raw.Contexts[name]; !ok {
		return nil, fmt.Errorf("%w: context %q is not in the kubeconfig (%s); it has %s", ErrContext, name, kubeconfigFiles(rules), contextNames(raw.Contexts))
	}
	// clientcmd reads the token file whole as it makes the config: check it first.
	if user := raw.AuthInfos[raw.Contexts[name].AuthInfo]; user != nil && user.TokenFile != "" {
		if err := checkTokenFile(name, user.TokenFile); err != nil {
			return nil, err
		}
	}
	rc, err := cc.ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("context %q: %w", name, err)
	}
	ns, _, err := cc.Namespace()
	if err != nil || ns == "" {
		ns = "default"
	}
	rc.Timeout = RequestTimeout
	rc.QPS, rc.Burst = 50, 100
	rc.UserAgent = "krm"
	if cfg.Warnings != nil {
		rc.WarningHandler = rest.NewWarningWriter(cfg.Warnings, rest.WarningWriterOptions{Deduplicate: true})
	} else {
		rc.WarningHandler = rest.NoWarnings{}
	}
	rc.Wrap(func(rt http.RoundTripper) http.RoundTripper { return guard{rt} })
	server := strings.TrimRight(rc.Host, "/")
	if !strings.Contains(server, "://") {
		server = "https://" + server
	}
	return &Target{Context: name, Server: scrub.URLs(server), Namespace: ns, base: server, rc: rc}, nil
}

// Connect makes the client and checks that the server answers: the first request, and the
// first run of an exec credential plugin.
func (t *Target) Connect(ctx context.Context) (*Client, error) {
	rc := t.rc
	if rc.ExecProvider != nil {
		var err error
		if rc, err = execCredential(ctx, t.Context, rc); err != nil {
			return nil, err
		}
	}
	hc, err := rest.HTTPClientFor(rc)
	if err != nil {
		return nil, fmt.Errorf("context %q: %w", t.Context, err)
	}
	dyn, err := dynamic.NewForConfigAndClient(rc, hc)
	if err != nil {
		return nil, fmt.Errorf("context %q: %w", t.Context, err)
	}
	c := &Client{Context: t.Context, Server: t.Server, Namespace: t.Namespace, base: t.base, dyn: dyn, http: hc}
	c.mapper = &mapper{c: c, versions: map[string]*resourceList{}, groups: map[string]string{}}
	if _, err := c.get(ctx, "/version"); err != nil {
		return nil, err
	}
	return c, nil
}

// Connect resolves the context and connects to its server.
func Connect(ctx context.Context, cfg Config) (*Client, error) {
	t, err := Resolve(cfg)
	if err != nil {
		return nil, err
	}
	return t.Connect(ctx)
}

// loadingRules are clientcmd's rules for cfg: --kubeconfig, else $KUBECONFIG, else
// ~/.kube/config, each relative file taken relative to cfg.KubeconfigBase when set (a run target
// starts in its runfiles, not where the user typed the command).
func loadingRules(cfg Config) *clientcmd.ClientConfigLoadingRules {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = cfg.Kubeconfig
	if cfg.KubeconfigBase == "" {
		return rules
	}
	rebase := func(f string) string {
		if f == "" || filepath.IsAbs(f) {
			return f
		}
		return filepath.Join(cfg.KubeconfigBase, f)
	}
	rules.ExplicitPath = rebase(rules.ExplicitPath)
	for i, f := range rules.Precedence {
		rules.Precedence[i] = rebase(f)
	}
	return rules
}

// checkKubeconfigs refuses kubeconfig files over MaxKubeconfigSize or holding YAML aliases
// (clientcmd would expand them) before clientcmd reads them.
func checkKubeconfigs(rules *clientcmd.ClientConfigLoadingRules) error {
	files := rules.Precedence
	if rules.ExplicitPath != "" {
		files = []string{rules.ExplicitPath}
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			if rules.ExplicitPath == "" && errors.Is(err, os.ErrNotExist) {
				continue // clientcmd skips missing files of the list
			}
			return fmt.Errorf("kubeconfig: %w", err)
		}
		if st.Size() > MaxKubeconfigSize {
			return fmt.Errorf("kubeconfig %s: larger than %d bytes", f, MaxKubeconfigSize)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("kubeconfig: %w", err)
		}
		if _, err := yamlread.Nodes(data); err != nil {
			return fmt.Errorf("kubeconfig %s: %w", f, err)
		}
	}
	return nil
}

func kubeconfigFiles(rules *clientcmd.ClientConfigLoadingRules) string {
	if rules.ExplicitPath != "" {
		return rules.ExplicitPath
	}
	return strings.Join(rules.Precedence, string(os.PathListSeparator))
}

func contextNames[V any](m map[string]V) string {
	if len(m) == 0 {
		return "no contexts"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, fmt.Sprintf("%q", n))
	}
	sort.Strings(names)
	return "contexts " + strings.Join(names, ", ")
}

// AllowContext decides whether apply or delete may write through the context: the user named
// it with --context (explicit), or it is in the allow-list (allowed, or else $KRM_ALLOWED_CONTEXTS).
// When an allow-list is set, even an explicit context must be in it.
func AllowContext(context string, explicit bool, allowed []string) error {
	if len(allowed) == 0 {
		for _, a := range strings.Split(os.Getenv(AllowedContextsEnv), ",") {
			if a = strings.TrimSpace(a); a != "" {
				allowed = append(allowed, a)
			}
		}
	}
	if len(allowed) > 0 {
		for _, a := range allowed {
			if a == context {
				return nil
			}
		}
		return fmt.Errorf("%w: context %q is not in the allowed contexts (%s): add it to --allowed-context or %s",
			ErrContext, context, strings.Join(allowed, ", "), AllowedContextsEnv)
	}
	if explicit {
		return nil
	}
	return fmt.Errorf("%w: name the cluster with --context (the kubeconfig's current context is %q), or list the contexts krm may write to without it in %s or --allowed-context",
		ErrContext, context, AllowedContextsEnv)
}

// get reads a path of the API server (discovery), bounded; a 404 returns nil, nil.
func (c *Client) get(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.unreachable(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading %s%s: %w", c.Server, path, err)
	}
	if resp.StatusCode/100 == 2 && !json.Valid(body) {
		return nil, fmt.Errorf("the API server %s (context %q) answered GET %s with a body that is not valid JSON: %s", c.Server, c.Context, path, escape.Line(scrub.Message(string(body))))
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, nil
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, fmt.Errorf("the API server %s refused the credentials of context %q (401 Unauthorized): log in again or fix the kubeconfig's user", c.Server, c.Context)
	case resp.StatusCode == http.StatusForbidden:
		return nil, fmt.Errorf("%w: GET %s on %s (context %q): %s", ErrForbidden, path, c.Server, c.Context, scrub.Message(string(body)))
	case resp.StatusCode/100 != 2:
		return nil, fmt.Errorf("GET %s%s: %s", c.Server, path, scrub.Message(resp.Status))
	}
	return body, nil
}

// notJSON names the server and context of an answer client-go could not decode (its error
// says only "json parse error"); nil for other errors.
func (c *Client) notJSON(err error) error {
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) && !strings.Contains(err.Error(), "json parse error") {
		return nil
	}
	return fmt.Errorf("the API server %s (context %q) answered with a body that is not valid JSON: %w", c.Server, c.Context, serverMessage(err))
}

// unreachable names the server and context of a transport error: a refused redirect or
// answer, a server that did not answer in time, or one krm cannot reach.
func (c *Client) unreachable(err error) error {
	var re *RedirectError
	if errors.As(err, &re) {
		return fmt.Errorf("context %q: %w", c.Context, re)
	}
	var se *ServerError
	if errors.As(err, &se) {
		return fmt.Errorf("context %q: %w", c.Context, se)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the API server %s (context %q) did not answer in time: %w", c.Server, c.Context, &shownError{err: err, msg: scrub.URLs(err.Error())})
	}
	return fmt.Errorf("%w %s (context %q): %s", ErrUnreachable, c.Server, c.Context, scrub.URLs(err.Error()))
}
