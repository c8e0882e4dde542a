package bazeltest

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"sort"
	"strings"
)

// Spawn is one spawn of a Bazel execution log. Actions that Bazel's own action cache
// skipped are not in the log at all.
type Spawn struct {
	Mnemonic string
	// Cached: the outputs came from a disk or remote cache; false: the spawn ran.
	Cached  bool
	Outputs []string
	// Args is the command line (the executable first).
	Args []string
}

type jsonSpawn struct {
	Mnemonic       string   `json:"mnemonic"`
	RemoteCacheHit bool     `json:"remoteCacheHit"` // Bazel 4.2.3
	CacheHit       bool     `json:"cacheHit"`       // Bazel 7: a disk or remote cache hit
	ListedOutputs  []string `json:"listedOutputs"`
	CommandArgs    []string `json:"commandArgs"`
}

// ParseExecLog reads the spawns of an execution log written with
// --execution_log_json_file (a stream of SpawnExec JSON objects).
func ParseExecLog(r io.Reader) ([]Spawn, error) {
	dec := json.NewDecoder(r)
	var spawns []Spawn
	for {
		var s jsonSpawn
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return spawns, nil
		}
		if err != nil {
			return nil, err
		}
		spawns = append(spawns, Spawn{Mnemonic: s.Mnemonic, Cached: s.RemoteCacheHit || s.CacheHit, Outputs: s.ListedOutputs, Args: s.CommandArgs})
	}
}

// ExecLog is the spawns of the execution log file.
func ExecLog(t T, file string) []Spawn {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("bazeltest: execution log: %v", err)
	}
	defer f.Close()
	spawns, err := ParseExecLog(f)
	if err != nil {
		t.Fatalf("bazeltest: execution log %s: %v", file, err)
	}
	return spawns
}

// Count is how many spawns with the mnemonic ran (cached false) or came from a cache.
func Count(spawns []Spawn, mnemonic string, cached bool) int {
	n := 0
	for _, s := range spawns {
		if s.Mnemonic == mnemonic && s.Cached == cached {
			n++
		}
	}
	return n
}

// renderSuffixes are the outputs of the render actions of a krm_kustomization, NAME being
// its output path without the suffix: KrmRender's snapshot, KrmRenderOrigins' snapshot with
// origins and KrmManifests' manifests.
var renderSuffixes = []string{".origins.krmsnap", ".krmsnap", "_manifests.yaml"}

// Renders is the krm_kustomization targets whose render actions (KrmRender,
// KrmRenderOrigins, KrmManifests) ran (cached false) or came from a cache, as their output
// path without the suffix (bazel-out/k8-fastbuild/bin/PKG/NAME): sorted, each once.
func Renders(spawns []Spawn, cached bool) []string {
	seen := map[string]bool{}
	for _, s := range spawns {
		if s.Cached != cached || (s.Mnemonic != "KrmRender" && s.Mnemonic != "KrmRenderOrigins" && s.Mnemonic != "KrmManifests") {
			continue
		}
		for _, o := range s.Outputs {
			for _, suffix := range renderSuffixes {
				if strings.HasSuffix(o, suffix) {
					seen[strings.TrimSuffix(o, suffix)] = true
					break
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
