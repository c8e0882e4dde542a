// Package examplegoldens checks the goldens of the examples against kustomize v5.8.2 (the
// test carries the build tag oracle: it runs kustomize and helm, which dev/scripts/test.sh
// installs into .bin/ when missing):
//
//	go test -tags oracle -count=1 ./dev/testing/examplegoldens
package examplegoldens
