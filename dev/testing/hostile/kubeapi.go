package hostile

import "net/http"

// KubeAPI adds the routes a Kubernetes client needs to apply, read, diff and delete one
// object of the core group (v1) of kind served as resource, in namespace, named name: the
// version, the discovery document, GET, PATCH (server-side apply answers the object) and
// DELETE. Routes added before it answer first: a test routes the request it misbehaves on,
// then calls KubeAPI.
func KubeAPI(s *Server, kind, resource, namespace, name string) *Server {
	obj := map[string]any{"apiVersion": "v1", "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": namespace, "resourceVersion": "1"}}
	path := "/api/v1/namespaces/" + namespace + "/" + resource + "/" + name
	return s.Handle("GET", "/version", JSON(http.StatusOK, map[string]string{"major": "1", "minor": "30", "gitVersion": "v1.30.0"})).
		Handle("GET", "/api/v1", JSON(http.StatusOK, map[string]any{"kind": "APIResourceList", "groupVersion": "v1",
			"resources": []map[string]any{{"name": resource, "kind": kind, "namespaced": true}}})).
		Handle("GET", path, JSON(http.StatusOK, obj)).
		Handle("PATCH", path, JSON(http.StatusOK, obj)).
		Handle("DELETE", path, JSON(http.StatusOK, map[string]any{"kind": "Status", "apiVersion": "v1", "status": "Success"}))
}
