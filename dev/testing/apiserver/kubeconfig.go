package apiserver

import "github.com/rules-krm/rules_krm/dev/testing/kubeconfig"

// writeKubeconfig writes a kubeconfig with one cluster (url, trusted through caPEM) and the
// contexts AdminContext (current) and LimitedContext.
func writeKubeconfig(path, url string, caPEM []byte, adminToken, limitedToken string) error {
	const cluster = "krm-test"
	return kubeconfig.Write(path, AdminContext,
		kubeconfig.Context{Name: AdminContext, Cluster: cluster, Server: url, CA: caPEM,
			UserName: AdminUser, User: kubeconfig.User{Token: adminToken}},
		kubeconfig.Context{Name: LimitedContext, Cluster: cluster, Server: url, CA: caPEM,
			UserName: LimitedUser, User: kubeconfig.User{Token: limitedToken}})
}
