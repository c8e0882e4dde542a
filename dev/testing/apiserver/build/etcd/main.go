// Command etcd is the etcd server of go.etcd.io/etcd/server/v3, built from the Go module proxy
// for the test harness in dev/testing/apiserver (dev/scripts/install-apiserver.sh).
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
