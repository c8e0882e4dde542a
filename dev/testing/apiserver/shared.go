package apiserver

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
)

// shared is the one server of a test binary whose TestMain calls RunShared.
var shared struct {
	enabled bool
	once    sync.Once
	s       *Server
	err     error
}

// RunShared runs the tests of a binary that share one server and stops that server at the
// end. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(apiserver.RunShared(m)) }
//
// The server starts at the first call of Shared: a binary whose selected tests do not need it
// starts none.
func RunShared(m *testing.M) int {
	shared.enabled = true
	code := m.Run()
	if shared.s != nil {
		if err := shared.s.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping the shared test API server: %v\n", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Shared returns the test binary's shared server, starting it at the first call; it fails the
// test when the server cannot start. Tests sharing it must not depend on each other's objects:
// use a namespace or names of their own.
func Shared(t testing.TB) *Server {
	t.Helper()
	if !shared.enabled {
		t.Fatal("apiserver.Shared needs RunShared in the test binary's TestMain: add\n" +
			"\tfunc TestMain(m *testing.M) { os.Exit(apiserver.RunShared(m)) }\n" +
			"or call apiserver.Start(t) for a server of the test's own")
	}
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), startTries*readyTimeout)
		defer cancel()
		shared.s, shared.err = StartProcess(ctx, "")
	})
	if shared.err != nil {
		t.Fatalf("starting the shared test API server: %v", shared.err)
	}
	return shared.s
}
