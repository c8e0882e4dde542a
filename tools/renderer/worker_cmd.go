package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync/atomic"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/execfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/starlarkfn"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// serveWorker runs krm as a Bazel persistent worker (package worker): each
// request is a krm command line, run as krm runs it, with what it prints
// (errors, warnings, what scripts and functions print) in the response.
// stdout carries the protocol, so nothing else may write there: os.Stdout
// points at stderr (the worker's log) while it serves.
func serveWorker() int {
	protocol := os.Stdout
	os.Stdout = os.Stderr
	var current atomic.Int32 // the request being run
	starlarkfn.Fatal = func(msg string) {
		// The process ends with this request: answer it first.
		_ = worker.WriteResponse(protocol, worker.Response{ExitCode: 1, Output: msg, ID: current.Load()})
		os.Exit(1)
	}
	err := worker.Serve(os.Stdin, protocol, func(req worker.Request, out io.Writer) int {
		current.Store(req.ID)
		log.SetOutput(out)
		starlarkfn.Stderr, execfn.Stderr = out, out
		defer func() {
			log.SetOutput(os.Stderr)
			starlarkfn.Stderr, execfn.Stderr = os.Stderr, os.Stderr
		}()
		return run(req.Arguments, out, out)
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
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 {
		lines = nil
	}
	return append(args[:n-1:n-1], lines...), nil
}
