// Command execlog summarizes the spawns of a Bazel execution log written with
// --execution_log_json_file (a stream of SpawnExec JSON objects), one line per spawn:
//
//	MNEMONIC <TAB> executed|cached <TAB> OUTPUT[,OUTPUT...]
//
// "cached" is a remote or disk cache hit; "executed" ran. Actions that Bazel's own action
// cache skipped are not in the log at all. Used by scripts/incrementality-test.sh and
// scripts/cache-test.sh.
//
// Usage: execlog [-mnemonic M] FILE
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

type spawn struct {
	Mnemonic       string   `json:"mnemonic"`
	RemoteCacheHit bool     `json:"remoteCacheHit"` // Bazel 4.2.3
	CacheHit       bool     `json:"cacheHit"`       // Bazel 7: a disk or remote cache hit
	ListedOutputs  []string `json:"listedOutputs"`
}

func main() {
	mnemonic := flag.String("mnemonic", "", "only spawns with this mnemonic")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: execlog [-mnemonic M] FILE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "execlog:", err)
		os.Exit(1)
	}
	defer f.Close()
	if err := summarize(f, os.Stdout, *mnemonic); err != nil {
		fmt.Fprintln(os.Stderr, "execlog:", err)
		os.Exit(1)
	}
}

func summarize(r io.Reader, w io.Writer, mnemonic string) error {
	dec := json.NewDecoder(r)
	for {
		var s spawn
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if mnemonic != "" && s.Mnemonic != mnemonic {
			continue
		}
		state := "executed"
		if s.RemoteCacheHit || s.CacheHit {
			state = "cached"
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", s.Mnemonic, state, strings.Join(s.ListedOutputs, ",")); err != nil {
			return err
		}
	}
}
