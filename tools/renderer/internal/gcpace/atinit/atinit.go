// Package atinit starts krm's garbage collector pacing (package gcpace)
// while the program initialises: Go initialises the packages ready first in
// import path order, so this one runs before the packages of Helm, client-go
// and kustomize, whose initialisation allocated past the runtime's 4 MB
// target and paid a collection before main. Import it for effect only.
package atinit

import "github.com/rules-krm/rules_krm/tools/renderer/internal/gcpace"

// MinHeap is krm's heap target: no collections before the heap reaches it.
const MinHeap = 128 << 20

func init() { gcpace.Start(MinHeap) }
