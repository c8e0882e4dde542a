package policycheck

import "github.com/rules-krm/rules_krm/tools/renderer/internal/policysupport"

// builtin is what the discovery of kube-apiserver v1.37.2 says of its built-in kinds (the
// default group-versions): GROUP/VERSION (VERSION for the core group) and kind → resource
// and scope. The agreement test (internal/validate, -tags apiserver) compares it with the
// server's discovery.
var builtin = map[[2]string]policysupport.Kind{
	{"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicy"}:          {Resource: "mutatingadmissionpolicies", Namespaced: false},
	{"admissionregistration.k8s.io/v1", "MutatingAdmissionPolicyBinding"}:   {Resource: "mutatingadmissionpolicybindings", Namespaced: false},
	{"admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration"}:     {Resource: "mutatingwebhookconfigurations", Namespaced: false},
	{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy"}:        {Resource: "validatingadmissionpolicies", Namespaced: false},
	{"admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding"}: {Resource: "validatingadmissionpolicybindings", Namespaced: false},
	{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"}:   {Resource: "validatingwebhookconfigurations", Namespaced: false},
	{"apiextensions.k8s.io/v1", "CustomResourceDefinition"}:                 {Resource: "customresourcedefinitions", Namespaced: false},
	{"apiregistration.k8s.io/v1", "APIService"}:                             {Resource: "apiservices", Namespaced: false},
	{"apps/v1", "ControllerRevision"}:                                       {Resource: "controllerrevisions", Namespaced: true},
	{"apps/v1", "DaemonSet"}:                                                {Resource: "daemonsets", Namespaced: true},
	{"apps/v1", "Deployment"}:                                               {Resource: "deployments", Namespaced: true},
	{"apps/v1", "ReplicaSet"}:                                               {Resource: "replicasets", Namespaced: true},
	{"apps/v1", "StatefulSet"}:                                              {Resource: "statefulsets", Namespaced: true},
	{"authentication.k8s.io/v1", "SelfSubjectReview"}:                       {Resource: "selfsubjectreviews", Namespaced: false},
	{"authentication.k8s.io/v1", "TokenReview"}:                             {Resource: "tokenreviews", Namespaced: false},
	{"authorization.k8s.io/v1", "LocalSubjectAccessReview"}:                 {Resource: "localsubjectaccessreviews", Namespaced: true},
	{"authorization.k8s.io/v1", "SelfSubjectAccessReview"}:                  {Resource: "selfsubjectaccessreviews", Namespaced: false},
	{"authorization.k8s.io/v1", "SelfSubjectRulesReview"}:                   {Resource: "selfsubjectrulesreviews", Namespaced: false},
	{"authorization.k8s.io/v1", "SubjectAccessReview"}:                      {Resource: "subjectaccessreviews", Namespaced: false},
	{"autoscaling/v1", "HorizontalPodAutoscaler"}:                           {Resource: "horizontalpodautoscalers", Namespaced: true},
	{"autoscaling/v2", "HorizontalPodAutoscaler"}:                           {Resource: "horizontalpodautoscalers", Namespaced: true},
	{"batch/v1", "CronJob"}:                                                 {Resource: "cronjobs", Namespaced: true},
	{"batch/v1", "Job"}:                                                     {Resource: "jobs", Namespaced: true},
	{"certificates.k8s.io/v1", "CertificateSigningRequest"}:                 {Resource: "certificatesigningrequests", Namespaced: false},
	{"certificates.k8s.io/v1", "ClusterTrustBundle"}:                        {Resource: "clustertrustbundles", Namespaced: false},
	{"certificates.k8s.io/v1", "PodCertificateRequest"}:                     {Resource: "podcertificaterequests", Namespaced: true},
	{"coordination.k8s.io/v1", "Lease"}:                                     {Resource: "leases", Namespaced: true},
	{"discovery.k8s.io/v1", "EndpointSlice"}:                                {Resource: "endpointslices", Namespaced: true},
	{"events.k8s.io/v1", "Event"}:                                           {Resource: "events", Namespaced: true},
	{"flowcontrol.apiserver.k8s.io/v1", "FlowSchema"}:                       {Resource: "flowschemas", Namespaced: false},
	{"flowcontrol.apiserver.k8s.io/v1", "PriorityLevelConfiguration"}:       {Resource: "prioritylevelconfigurations", Namespaced: false},
	{"networking.k8s.io/v1", "IPAddress"}:                                   {Resource: "ipaddresses", Namespaced: false},
	{"networking.k8s.io/v1", "Ingress"}:                                     {Resource: "ingresses", Namespaced: true},
	{"networking.k8s.io/v1", "IngressClass"}:                                {Resource: "ingressclasses", Namespaced: false},
	{"networking.k8s.io/v1", "NetworkPolicy"}:                               {Resource: "networkpolicies", Namespaced: true},
	{"networking.k8s.io/v1", "ServiceCIDR"}:                                 {Resource: "servicecidrs", Namespaced: false},
	{"node.k8s.io/v1", "RuntimeClass"}:                                      {Resource: "runtimeclasses", Namespaced: false},
	{"policy/v1", "PodDisruptionBudget"}:                                    {Resource: "poddisruptionbudgets", Namespaced: true},
	{"rbac.authorization.k8s.io/v1", "ClusterRole"}:                         {Resource: "clusterroles", Namespaced: false},
	{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding"}:                  {Resource: "clusterrolebindings", Namespaced: false},
	{"rbac.authorization.k8s.io/v1", "Role"}:                                {Resource: "roles", Namespaced: true},
	{"rbac.authorization.k8s.io/v1", "RoleBinding"}:                         {Resource: "rolebindings", Namespaced: true},
	{"resource.k8s.io/v1", "DeviceClass"}:                                   {Resource: "deviceclasses", Namespaced: false},
	{"resource.k8s.io/v1", "DeviceTaintRule"}:                               {Resource: "devicetaintrules", Namespaced: false},
	{"resource.k8s.io/v1", "ResourceClaim"}:                                 {Resource: "resourceclaims", Namespaced: true},
	{"resource.k8s.io/v1", "ResourceClaimTemplate"}:                         {Resource: "resourceclaimtemplates", Namespaced: true},
	{"resource.k8s.io/v1", "ResourceSlice"}:                                 {Resource: "resourceslices", Namespaced: false},
	{"scheduling.k8s.io/v1", "PriorityClass"}:                               {Resource: "priorityclasses", Namespaced: false},
	{"storage.k8s.io/v1", "CSIDriver"}:                                      {Resource: "csidrivers", Namespaced: false},
	{"storage.k8s.io/v1", "CSINode"}:                                        {Resource: "csinodes", Namespaced: false},
	{"storage.k8s.io/v1", "CSIStorageCapacity"}:                             {Resource: "csistoragecapacities", Namespaced: true},
	{"storage.k8s.io/v1", "StorageClass"}:                                   {Resource: "storageclasses", Namespaced: false},
	{"storage.k8s.io/v1", "VolumeAttachment"}:                               {Resource: "volumeattachments", Namespaced: false},
	{"storage.k8s.io/v1", "VolumeAttributesClass"}:                          {Resource: "volumeattributesclasses", Namespaced: false},
	{"storagemigration.k8s.io/v1", "StorageVersionMigration"}:               {Resource: "storageversionmigrations", Namespaced: false},
	{"v1", "Binding"}:                                                       {Resource: "bindings", Namespaced: true},
	{"v1", "ComponentStatus"}:                                               {Resource: "componentstatuses", Namespaced: false},
	{"v1", "ConfigMap"}:                                                     {Resource: "configmaps", Namespaced: true},
	{"v1", "Endpoints"}:                                                     {Resource: "endpoints", Namespaced: true},
	{"v1", "Event"}:                                                         {Resource: "events", Namespaced: true},
	{"v1", "LimitRange"}:                                                    {Resource: "limitranges", Namespaced: true},
	{"v1", "Namespace"}:                                                     {Resource: "namespaces", Namespaced: false},
	{"v1", "Node"}:                                                          {Resource: "nodes", Namespaced: false},
	{"v1", "PersistentVolume"}:                                              {Resource: "persistentvolumes", Namespaced: false},
	{"v1", "PersistentVolumeClaim"}:                                         {Resource: "persistentvolumeclaims", Namespaced: true},
	{"v1", "Pod"}:                                                           {Resource: "pods", Namespaced: true},
	{"v1", "PodTemplate"}:                                                   {Resource: "podtemplates", Namespaced: true},
	{"v1", "ReplicationController"}:                                         {Resource: "replicationcontrollers", Namespaced: true},
	{"v1", "ResourceQuota"}:                                                 {Resource: "resourcequotas", Namespaced: true},
	{"v1", "Secret"}:                                                        {Resource: "secrets", Namespaced: true},
	{"v1", "Service"}:                                                       {Resource: "services", Namespaced: true},
	{"v1", "ServiceAccount"}:                                                {Resource: "serviceaccounts", Namespaced: true},
}

// BuiltinKinds returns the built-in kinds' resources and scopes, keyed by GROUP/VERSION and kind.
func BuiltinKinds() map[[2]string]policysupport.Kind {
	out := make(map[[2]string]policysupport.Kind, len(builtin))
	for k, v := range builtin {
		out[k] = v
	}
	return out
}
