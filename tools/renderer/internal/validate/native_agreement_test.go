//go:build apiserver

package validate

import (
	"strings"
	"testing"
)

// nativeCases are built-in objects valid on the server and their mutants, each a field set
// to a value (PATH=YAML) that breaks one rule of the server's per-kind validation (package
// nativecheck), or keeps the object valid (a rule's edge). The agreement test also wants
// each of krm's errors of these, FIELD: MESSAGE, in the server's message (nativeReasons).
func nativeCases(t *testing.T) []agreementCase {
	var cases []agreementCase
	for _, b := range nativeBases {
		objs, err := Parse(b.name, []byte(b.yaml))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, agreementCase{name: "native " + b.name, node: objs[0].Node, mutation: "native"})
		for _, m := range b.mutants {
			path, value, _ := strings.Cut(m, "=")
			n := deepCopy(objs[0].Node)
			setPath(t, n, path, value)
			cases = append(cases, agreementCase{name: "native " + b.name + " " + m, node: n, mutation: "native " + m})
		}
	}
	return cases
}

// nativeReasons reports the errors of krm (FIELD: MESSAGE) that the server's message does
// not hold; of a message krm hides (a Secret's value), the field and the kind of error.
func nativeReasons(res Result, serverMessage string) []string {
	var missing []string
	for _, e := range res.Errors {
		s := e.Field + ": " + e.Msg
		if kind, hidden := strings.CutSuffix(e.Msg, ": "+hiddenValue); hidden {
			s = e.Field + ": " + kind // what krm hides, the server shows
		}
		if !strings.Contains(serverMessage, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

var nativeBases = []struct {
	name, yaml string
	mutants    []string
}{
	{"deployment", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, example.com/tier: front}
  annotations: {example.com/owner: team-a, Example.COM/Case: ok}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: tier, operator: NotIn, values: [db]}]
  template:
    metadata:
      labels: {app: web}
      annotations: {example.com/a: b}
    spec:
      volumes:
      - {name: data, emptyDir: {}}
      - {name: conf, configMap: {name: conf}}
      initContainers:
      - {name: init, image: busybox}
      containers:
      - name: web
        image: nginx
        ports: [{name: http, containerPort: 8080, hostPort: 8080}, {name: metrics, containerPort: 9090, protocol: UDP}]
        env: [{name: GOOD_NAME, value: x}, {name: relaxed.name-1, value: y}]
        volumeMounts: [{name: data, mountPath: /data}, {name: conf, mountPath: /etc/conf}]
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 500m, memory: 64Mi}}
      - {name: sidecar, image: envoy}
`, []string{
		"metadata.name=Web_1", "metadata.name=web.example.com", "metadata.name=" + strings.Repeat("a", 254),
		`metadata.labels={"a b": x}`, `metadata.labels={app: "bad value"}`, "metadata.labels={app: " + strings.Repeat("v", 64) + "}",
		`metadata.labels={"Example.com/x": y}`, `metadata.labels={"bad_prefix/k": y}`, `metadata.labels={"/k": y}`,
		`metadata.annotations={"bad key": x}`, `metadata.annotations={"/k": x}`,
		"metadata.annotations={a: " + strings.Repeat("x", 256*1024) + "}", "metadata.annotations={a: " + strings.Repeat("x", 256*1024-1) + "}",
		"spec.selector={}", "spec.selector={matchLabels: {app: api}}",
		"spec.selector={matchLabels: {app: web, tier: front}}",
		"spec.selector={matchExpressions: [{key: app, operator: In, values: [web, api]}]}",
		"spec.selector={matchExpressions: [{key: app, operator: In, values: [api]}]}",
		"spec.selector={matchExpressions: [{key: app, operator: DoesNotExist}]}",
		"spec.selector={matchExpressions: [{key: app, operator: Like, values: [web]}]}",
		"spec.selector={matchExpressions: [{key: app, operator: In}]}",
		"spec.selector={matchExpressions: [{key: app, operator: Exists, values: [x]}]}",
		`spec.selector={matchLabels: {"a b": web}}`,
		"spec.template.metadata.labels={app: api}", `spec.template.metadata.labels={app: web, "b@d": x}`,
		`spec.template.metadata.annotations={"_x": y}`,
		"spec.template.spec.restartPolicy=Never",
		"spec.template.spec.containers[1].name=web", "spec.template.spec.initContainers[0].name=web",
		"spec.template.spec.containers[1].name=Side_Car", "spec.template.spec.containers[1].name=" + strings.Repeat("s", 64),
		"spec.template.spec.containers[1].image=''",
		"spec.template.spec.containers=[]",
		"spec.template.spec.containers[0].ports=[{name: http, containerPort: 80}, {name: http, containerPort: 81}]",
		"spec.template.spec.containers[0].ports=[{name: too-long-port-name, containerPort: 80}]",
		"spec.template.spec.containers[0].ports=[{name: no_under, containerPort: 80}]",
		"spec.template.spec.containers[0].ports=[{name: '123', containerPort: 80}]",
		"spec.template.spec.containers[0].ports=[{name: a--b, containerPort: 80}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 70000}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 0}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 80, hostPort: 65536}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 80}, {containerPort: 80, protocol: UDP}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 80, hostPort: 8080}, {containerPort: 81, hostPort: 8080}]",
		"spec.template.spec.containers[0].ports=[{containerPort: 80, hostPort: 8080}, {containerPort: 81, hostPort: 8080, protocol: UDP}]",
		"spec.template.spec.containers[1].ports=[{containerPort: 80, hostPort: 8080}]",
		"spec.template.spec.initContainers=[{name: i1, image: i}, {name: i2, image: i, ports: [{containerPort: 1, hostPort: 80}, {containerPort: 2, hostPort: 80}]}]",
		"spec.template.spec.containers[0].env=[{name: 'A=B', value: x}]",
		"spec.template.spec.containers[0].env=[{name: '', value: x}]",
		"spec.template.spec.containers[0].env=[{name: '1abc', value: x}]",
		"spec.template.spec.volumes=[{name: data, emptyDir: {}}, {name: data, emptyDir: {}}, {name: conf, emptyDir: {}}]",
		"spec.template.spec.volumes=[{name: Data_1, emptyDir: {}}, {name: conf, emptyDir: {}}]",
		"spec.template.spec.containers[0].volumeMounts=[{name: missing, mountPath: /m}]",
		"spec.template.spec.containers[0].volumeMounts=[{name: data, mountPath: /d}, {name: conf, mountPath: /d}]",
		"spec.template.spec.containers[0].resources={requests: {cpu: '2'}, limits: {cpu: 1500m}}",
		"spec.template.spec.containers[0].resources={requests: {memory: 1Gi}, limits: {memory: 1Gi}}",
		"spec.template.spec.containers[0].resources={requests: {cpu: '-1'}}",
		"spec.template.spec.containers[0].resources={requests: {memroy: 1Gi}}",
		"spec.template.spec.containers[0].resources={requests: {example.com/gpu: '1'}, limits: {example.com/gpu: '2'}}",
		"spec.template.spec.containers[0].resources={requests: {example.com/gpu: '1'}}",
		"spec.template.spec.containers[0].resources={limits: {example.com/gpu: '1'}}",
	}},
	{"statefulset", `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/db}]}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`, []string{
		"metadata.name=db.example", "spec.serviceName=Bad.Svc", "spec.selector={}",
		"spec.template.metadata.labels={app: other}", "spec.volumeClaimTemplates[0].metadata.name=other",
	}},
	{"daemonset", `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: agent}]
`, []string{"spec.selector={}", "spec.template.metadata.labels={app: other}", "spec.template.spec.restartPolicy=OnFailure", "metadata.name=Agent"}},
	{"replicaset", `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  selector: {matchLabels: {app: rs}}
  template:
    metadata: {labels: {app: rs}}
    spec:
      containers: [{name: c, image: i}]
`, []string{"spec.selector={}", "spec.template.metadata.labels={app: other}"}},
	{"replicationcontroller", `apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec:
  replicas: 1
  selector: {app: rc}
  template:
    metadata: {labels: {app: rc}}
    spec:
      containers: [{name: c, image: i}]
`, []string{"spec.template.metadata.labels={app: other}", "spec.template.metadata={}", "spec.selector={}", `spec.selector={"a b": c}`, "spec.template.spec.restartPolicy=Never"}},
	{"job", `apiVersion: batch/v1
kind: Job
metadata: {name: job}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i}]
`, []string{"spec.template.spec.restartPolicy=Always", "spec.template.spec.restartPolicy=OnFailure", "metadata.name=Job_1"}},
	{"cronjob", `apiVersion: batch/v1
kind: CronJob
metadata: {name: cron}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: c, image: i}]
`, []string{"metadata.name=" + strings.Repeat("c", 53), "metadata.name=" + strings.Repeat("c", 52), "spec.jobTemplate.spec.template.spec.restartPolicy=Always"}},
	{"service", `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: http}
  - {name: https, port: 443, targetPort: 8443, protocol: TCP, appProtocol: example.com/h2}
`, []string{
		"metadata.name=web.example", "metadata.name=1web", "metadata.name=Web",
		"spec.ports=[]", "spec.ports=[{port: 80}]", "spec.ports=[{port: 80}, {name: b, port: 81}]",
		"spec.ports=[{name: a, port: 80}, {name: a, port: 81}]", "spec.ports=[{name: a, port: 80}, {name: b, port: 80}]",
		"spec.ports=[{name: a, port: 80}, {name: b, port: 80, protocol: UDP}]",
		"spec.ports=[{name: Bad_Name, port: 80}, {name: b, port: 81}]", "spec.ports=[{port: 0}]", "spec.ports=[{port: 70000}]",
		"spec.ports=[{port: 80, targetPort: 70000}]", "spec.ports=[{port: 80, targetPort: bad_name}]",
		"spec.ports=[{port: 80, targetPort: 0}]",
		"spec.ports=[{port: 80, nodePort: 30001}]", "spec.ports=[{port: 80, appProtocol: 'bad proto'}]",
		`spec.selector={"bad key!": x}`,
	}},
	{"headless service", `apiVersion: v1
kind: Service
metadata: {name: db}
spec: {clusterIP: None, selector: {app: db}}
`, []string{"spec.clusterIP=''"}},
	{"externalname service", `apiVersion: v1
kind: Service
metadata: {name: ext}
spec: {type: ExternalName, externalName: db.example.com.}
`, []string{"spec.externalName=Bad_Host", "spec.externalName=''", "spec.type=NodePort"}},
	{"configmap", `apiVersion: v1
kind: ConfigMap
metadata: {name: conf}
data: {good.key_1-x: a, KEY: b}
binaryData: {bin: ZA==}
`, []string{
		"metadata.name=Conf", `data={"bad/key": a}`, `data={"..": a}`, `data={"bad key": a}`, "data={bin: a}",
		`binaryData={"bad key": ZA==}`, "data={a: " + strings.Repeat("x", 1024*1024+1) + "}",
	}},
	{"secret", `apiVersion: v1
kind: Secret
metadata: {name: creds}
data: {password: cGFzcw==}
stringData: {user: admin}
`, []string{`data={"bad key": YQ==}`, `stringData={"also/bad": x}`, "metadata.name=Creds_1"}},
	{"tls secret", `apiVersion: v1
kind: Secret
metadata: {name: tls}
type: kubernetes.io/tls
data: {tls.crt: YQ==, tls.key: YQ==}
`, []string{"data={tls.crt: YQ==}", "data={}"}},
	{"dockerconfigjson secret", `apiVersion: v1
kind: Secret
metadata: {name: pull}
type: kubernetes.io/dockerconfigjson
stringData: {.dockerconfigjson: '{"auths": {}}'}
`, []string{"stringData={.dockerconfigjson: 'not json'}", "stringData={other: x}"}},
	{"basic-auth secret", `apiVersion: v1
kind: Secret
metadata: {name: basic}
type: kubernetes.io/basic-auth
stringData: {username: u}
`, []string{"stringData={}"}},
	{"namespace", `apiVersion: v1
kind: Namespace
metadata: {name: team-a}
`, []string{"metadata.name=team.a", "metadata.name=" + strings.Repeat("n", 64)}},
	{"role", `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: "system:reader"}
rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
`, []string{"metadata.name=a/b", "metadata.name=..", "metadata.name=Has_Upper-And:colons"}},
	{"serviceaccount", `apiVersion: v1
kind: ServiceAccount
metadata: {name: sa}
`, []string{"metadata.name=SA", "metadata.generateName=sa-", "metadata.generateName=Sa_"}},
	{"pdb", `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
`, []string{`spec.minAvailable="1"`, `spec.minAvailable="50%"`, `spec.minAvailable="150%"`, "spec.minAvailable=-1", `spec.selector={matchLabels: {"a b": c}}`}},
	{"pvc", `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`, []string{"spec.accessModes=[]"}},
	{"networkpolicy", `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: np}
spec:
  podSelector: {matchLabels: {app: web}}
  ingress: [{ports: [{port: 80}, {port: http}, {port: 8000, endPort: 8080}]}]
  egress: [{ports: [{protocol: UDP, port: 53}]}]
`, []string{`spec.ingress[0].ports=[{port: "7070"}]`, "spec.ingress[0].ports=[{port: 70000}]", "spec.ingress[0].ports=[{port: 80, endPort: 79}]",
		"spec.ingress[0].ports=[{port: http, endPort: 90}]", "spec.ingress[0].ports=[{endPort: 90}]", `spec.podSelector={matchLabels: {app: "bad value"}}`}},
	{"clusterrolebinding", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "system:binding"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:reader"}
subjects:
- {kind: ServiceAccount, name: sa, namespace: ns}
- {kind: User, name: "alice@example.com"}
- {kind: Group, name: devs, apiGroup: rbac.authorization.k8s.io}
`, []string{"subjects[0].namespace=''", "roleRef.kind=Role", "roleRef.apiGroup=example.com", "roleRef.apiGroup=''", "roleRef.name=a/b",
		"subjects[0].name=Bad_SA", "subjects[0].apiGroup=rbac.authorization.k8s.io",
		"subjects[1].apiGroup=example.com", "subjects[1].apiGroup=''", "subjects[1].kind=Robot"}},
	{"rolebinding", `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{kind: ServiceAccount, name: sa}]
`, []string{"roleRef.kind=Thing"}},
	{"probes and strategy", `apiVersion: apps/v1
kind: Deployment
metadata: {name: probed}
spec:
  selector: {matchLabels: {app: p}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 25%}}
  template:
    metadata: {labels: {app: p}}
    spec:
      containers:
      - name: c
        image: i
        ports: [{name: http, containerPort: 8080}]
        livenessProbe: {httpGet: {port: http, path: /}}
        readinessProbe: {tcpSocket: {port: 8080}}
`, []string{`spec.template.spec.containers[0].livenessProbe.httpGet.port="8080"`, "spec.template.spec.containers[0].readinessProbe.tcpSocket.port=0",
		"spec.template.spec.containers[0].livenessProbe.httpGet.port=Bad_Port",
		"spec.strategy.rollingUpdate={maxSurge: 0, maxUnavailable: 0}", `spec.strategy.rollingUpdate={maxSurge: 0, maxUnavailable: "0%"}`,
		`spec.strategy.rollingUpdate={maxUnavailable: "150%"}`, `spec.strategy.rollingUpdate={maxSurge: "x%"}`, "spec.strategy.rollingUpdate={maxSurge: -1}"}},
	{"ingress", `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web}
spec:
  rules:
  - host: www.example.com
    http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
`, []string{"metadata.name=Web_Ingress", "spec.rules=[]", "spec={}", "spec={defaultBackend: {service: {name: web, port: {number: 80}}}}"}},
}
