//go:build apiserver

package apiserver

import (
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// The client-go side of the harness, for tests that carry the build tag apiserver (the
// library itself needs no client-go, so that Bazel builds it without).

// RESTConfig is the client configuration of one context of kubeconfig (empty: its current
// context).
func RESTConfig(t testing.TB, kubeconfig, context string) *rest.Config {
	t.Helper()
	rc, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: context}).ClientConfig()
	if err != nil {
		t.Fatalf("kubeconfig %s, context %q: %v", kubeconfig, context, err)
	}
	return rc
}

// Dynamic is a dynamic client of one context of kubeconfig (empty: its current context).
func Dynamic(t testing.TB, kubeconfig, context string) *dynamic.DynamicClient {
	t.Helper()
	c, err := dynamic.NewForConfig(RESTConfig(t, kubeconfig, context))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
