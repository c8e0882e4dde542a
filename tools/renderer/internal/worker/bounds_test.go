package worker

import (
	"bufio"
	"bytes"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestManyFieldsBounded: a request of millions of empty arguments (two bytes each) is refused
// after maxArguments, not turned into a string each (4 GB for 256 MB of them), and a length
// that announces more than is sent allocates only what arrives.
func TestManyFieldsBounded(t *testing.T) {
	var msg []byte
	for range 3 * maxArguments {
		msg = protowire.AppendTag(msg, 1, protowire.BytesType)
		msg = protowire.AppendString(msg, "")
	}
	in := append(protowire.AppendVarint(nil, uint64(len(msg))), msg...)
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	_, err := ReadRequest(bufio.NewReader(bytes.NewReader(in)))
	runtime.ReadMemStats(&b)
	if err == nil || !strings.Contains(err.Error(), "more than 1048576 arguments") {
		t.Errorf("error %v, want the arguments' bound", err)
	}
	// The request read (twice its size as it grows) and maxArguments strings (16 MiB, twice as
	// the list grows) at most.
	if n := b.TotalAlloc - a.TotalAlloc; n > 2*uint64(len(in))+128<<20 {
		t.Errorf("%d MiB allocated for a request of %d MiB, want at most twice that and 128 MiB", n>>20, len(in)>>20)
	}

	runtime.ReadMemStats(&a)
	_, err = ReadRequest(bufio.NewReader(bytes.NewReader(protowire.AppendVarint(nil, maxMessage))))
	runtime.ReadMemStats(&b)
	if err == nil {
		t.Error("a request shorter than its length was read")
	}
	if n := b.TotalAlloc - a.TotalAlloc; n > 1<<20 {
		t.Errorf("%d MiB allocated for a request announced and not sent", n>>20)
	}
}
