// Command kube-apiserver is the Kubernetes API server of k8s.io/kubernetes, built from the Go
// module proxy for the test harness in dev/testing/apiserver (dev/scripts/install-apiserver.sh).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() { os.Exit(cli.Run(app.NewAPIServerCommand())) }
