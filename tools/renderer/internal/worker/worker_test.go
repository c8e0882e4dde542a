package worker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// request encodes a WorkRequest as Bazel sends it, with an inputs entry,
// a verbosity and a sandbox_dir for the worker to skip.
func request(id int32, args ...string) []byte {
	var b bytes.Buffer
	if err := WriteRequest(&b, 0, args...); err != nil {
		panic(err)
	}
	msg := b.Bytes()
	_, n := protowire.ConsumeVarint(msg)
	msg = msg[n:]
	var input []byte
	input = protowire.AppendTag(input, 1, protowire.BytesType)
	input = protowire.AppendString(input, "pkg/kustomization.yaml")
	input = protowire.AppendTag(input, 2, protowire.BytesType)
	input = protowire.AppendBytes(input, []byte{1, 2, 3})
	msg = protowire.AppendTag(msg, 2, protowire.BytesType)
	msg = protowire.AppendBytes(msg, input)
	if id != 0 {
		msg = protowire.AppendTag(msg, 3, protowire.VarintType)
		msg = protowire.AppendVarint(msg, uint64(id))
	}
	msg = protowire.AppendTag(msg, 5, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 10)
	msg = protowire.AppendTag(msg, 6, protowire.BytesType)
	msg = protowire.AppendString(msg, "sandbox")
	return append(protowire.AppendVarint(nil, uint64(len(msg))), msg...)
}

// readResponses decodes every WorkResponse in b.
func readResponses(t *testing.T, b []byte) []Response {
	t.Helper()
	var out []Response
	r := bufio.NewReader(bytes.NewReader(b))
	for {
		resp, err := ReadResponse(r)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, resp)
	}
}

func TestServe(t *testing.T) {
	in := append(request(0, "render", "a", "--manifests", "out.yaml"), request(7, "fail", "b")...)
	var out bytes.Buffer
	var got [][]string
	err := Serve(bytes.NewReader(in), &out, func(req Request, w io.Writer) int {
		args := req.Arguments
		got = append(got, args)
		if args[0] == "fail" {
			fmt.Fprintf(w, "Error: %s is broken\n", args[1])
			return 1
		}
		return 0
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[[render a --manifests out.yaml] [fail b]]" {
		t.Errorf("requests run: %q", got)
	}
	resps := readResponses(t, out.Bytes())
	want := []Response{{}, {ExitCode: 1, Output: "Error: b is broken\n", ID: 7}}
	if fmt.Sprint(resps) != fmt.Sprint(want) {
		t.Errorf("responses %+v, want %+v", resps, want)
	}
}

func TestServeBadInput(t *testing.T) {
	do := func(Request, io.Writer) int { return 0 }
	full := request(0, "render", "dir")
	for name, in := range map[string][]byte{
		"truncated":   full[:len(full)-3],
		"bad varint":  {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"too large":   protowire.AppendVarint(nil, maxMessage+1),
		"bad message": {2, 0x0a, 0x05},
	} {
		var out bytes.Buffer
		err := Serve(bytes.NewReader(in), &out, do)
		if err == nil || !strings.Contains(err.Error(), "worker request") {
			t.Errorf("%s: error %v", name, err)
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote a response", name)
		}
	}
	if err := Serve(bytes.NewReader(nil), io.Discard, do); err != nil {
		t.Errorf("empty input: %v", err)
	}
}

// TestServeMultiplex: requests with ids run beside each other (each waits here until all
// have started, which a worker serving one at a time never reaches), at most maxInFlight at
// once, and each is answered with its own id and output.
func TestServeMultiplex(t *testing.T) {
	const n = maxInFlight
	var in []byte
	for i := 1; i <= n; i++ {
		in = append(in, request(int32(i), "render", fmt.Sprint(i))...)
	}
	in = append(in, request(n+1, "render", "late")...)
	var started sync.WaitGroup
	started.Add(n)
	var mu sync.Mutex
	running, most := 0, 0
	var out bytes.Buffer
	done := make(chan error)
	go func() {
		done <- Serve(bytes.NewReader(in), &out, func(req Request, w io.Writer) int {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			if req.Arguments[1] != "late" {
				started.Done()
				started.Wait()
			}
			mu.Lock()
			running--
			mu.Unlock()
			fmt.Fprintf(w, "rendered %s", req.Arguments[1])
			return int(req.ID % 2)
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the requests did not run beside each other")
	}
	if most > maxInFlight {
		t.Errorf("%d requests ran at once, more than %d", most, maxInFlight)
	}
	resps := readResponses(t, out.Bytes())
	if len(resps) != n+1 {
		t.Fatalf("%d responses, want %d", len(resps), n+1)
	}
	seen := map[int32]bool{}
	for _, r := range resps {
		want := fmt.Sprintf("rendered %d", r.ID)
		if r.ID == n+1 {
			want = "rendered late"
		}
		if r.Output != want || r.ExitCode != r.ID%2 || seen[r.ID] {
			t.Errorf("response %+v: want output %q, exit %d, once", r, want, r.ID%2)
		}
		seen[r.ID] = true
	}
}
