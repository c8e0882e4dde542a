package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// serveWorker runs krm as a Bazel persistent worker (package worker): each
// request is a krm command line, run as krm runs it, with what it prints
// (errors, warnings) in the response. stdout carries the protocol, so
// nothing else may write there: os.Stdout points at stderr (the worker's
// log) while it serves.
func serveWorker() int {
	protocol := os.Stdout
	os.Stdout = os.Stderr
	err := worker.Serve(os.Stdin, protocol, func(args []string, out io.Writer) int {
		log.SetOutput(out)
		defer log.SetOutput(os.Stderr)
		return run(args, out, out)
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "krm: persistent worker: %v\n", err)
		return 1
	}
	return 0
}

// expandFlagfile returns args with a last argument @FILE replaced by the
// lines of FILE, one argument a line: Bazel passes an action's arguments
// that way when it may run the action in a persistent worker.
func expandFlagfile(args []string) ([]string, error) {
	n := len(args)
	if n == 0 || !strings.HasPrefix(args[n-1], "@") || len(args[n-1]) == 1 {
		return args, nil
	}
	name := args[n-1][1:]
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading arguments from %s: %w", args[n-1], err)
	}
	out := append([]string(nil), args[:n-1]...)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading arguments from %s: %w", args[n-1], err)
	}
	return out, nil
}
