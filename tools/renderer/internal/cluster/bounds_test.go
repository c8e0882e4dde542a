package cluster

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestManyKeysLinear: a ConfigMap of 80,000 keys is read in linear time, before any request
// (kyaml's MarshalJSON decodes through go-yaml, which compares a mapping's keys pairwise:
// 26 s before), and sent as written.
func TestManyKeysLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide, namespace: n}\ndata:\n")
	for i := range 80000 {
		b.WriteString("  key-" + strconv.Itoa(i) + ": v\n")
	}
	start := cpuTime(t)
	objs, err := ReadManifests([]string{"-"}, strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if d := cpuTime(t) - start; d > 5*time.Second {
		t.Errorf("read in %.1f s of CPU, want well under 5 s", d.Seconds())
	}
	if m, _, _ := unstructured.NestedStringMap(objs[0].Object, "data"); len(m) != 80000 || m["key-79999"] != "v" {
		t.Errorf("got %d keys, want 80000", len(m))
	}
}

// cpuTime is the CPU time the process has used (a loaded machine does not fail the test).
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
