// Command kube-controller-manager is the controller manager of k8s.io/kubernetes, built in the
// same module (and go build) as kube-apiserver for the test harness in dev/testing/apiserver
// (dev/scripts/install-apiserver.sh): tests that need a real controller (the Deployment controller
// writing status.observedGeneration and conditions) start it beside the API server.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() { os.Exit(cli.Run(app.NewControllerManagerCommand())) }
