// Command execlog summarizes the spawns of a Bazel execution log written with
// --execution_log_json_file (a stream of SpawnExec JSON objects), one line per spawn:
//
//	MNEMONIC <TAB> executed|cached <TAB> OUTPUT[,OUTPUT...]
//
// "cached" is a remote or disk cache hit; "executed" ran. Actions that Bazel's own action
// cache skipped are not in the log at all. The Go integration tests read logs with
// dev/testing/bazeltest, which this command prints from.
//
// Usage: execlog [-mnemonic M] FILE
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

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
	spawns, err := bazeltest.ParseExecLog(r)
	if err != nil {
		return err
	}
	for _, s := range spawns {
		if mnemonic != "" && s.Mnemonic != mnemonic {
			continue
		}
		state := "executed"
		if s.Cached {
			state = "cached"
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", s.Mnemonic, state, strings.Join(s.Outputs, ",")); err != nil {
			return err
		}
	}
	return nil
}
