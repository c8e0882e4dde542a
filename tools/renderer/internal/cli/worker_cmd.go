package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/worker"
)

// serveWorker runs krm as a Bazel persistent worker (package worker): each
// request is a krm command line, run as krm runs it, with what it prints
// (errors, warnings, what scripts and functions print) in the response.
// Each request has streams of its own; stdout carries the protocol, so
// os.Stdout points at stderr (the worker's log) while it serves, should a
// library print there.
func serveWorker() int {
	protocol := worker.NewServer(os.Stdout)
	os.Stdout = os.Stderr
	err := protocol.Serve(os.Stdin, func(req worker.Request, out io.Writer) int {
		if req.ID == 0 {
			// The log package is where kustomize's and Helm's libraries print
			// warnings; it is process-wide, and a singleplex worker serves one
			// request at a time, so it points at the request being served. A
			// multiplex worker serves only the lean renderer's actions (the
			// rules ask for it there), whose warnings go to the request's
			// streams: its log stays the worker's log.
			log.SetOutput(out)
			defer log.SetOutput(os.Stderr)
		}
		return run(req.Arguments, streams{stdin: eof{}, stdout: out, stderr: out, abort: func(msg string) {
			// The process ends with this request: answer it first (the
			// requests running beside it in a multiplex worker fail with it).
			_ = protocol.Respond(worker.Response{ExitCode: 1, Output: msg, ID: req.ID})
			os.Exit(1)
		}})
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "krm: persistent worker: %v\n", err)
		return 1
	}
	return 0
}

// eof is a request's stdin: the worker's stdin is the protocol.
type eof struct{}

func (eof) Read([]byte) (int, error) { return 0, io.EOF }

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

// testArgsSuffix names the arguments file of a test that runs krm itself as
// its executable (krm_validate_test): `<executable>.krmargs`, beside it in the
// runfiles tree. A Starlark rule cannot give its executable arguments.
const testArgsSuffix = ".krmargs"

// testArgs returns args after the lines of the file `<exe>.krmargs` (exe
// without a `.exe` suffix), one argument a line, when exe is a path (not a
// name found through PATH) and that file exists; else args. In those lines, `${NAME}` (NAME in capitals, digits and underscores)
// is the environment variable NAME, empty when unset: the test names
// `${XML_OUTPUT_FILE}`, which Bazel sets for each run.
func testArgs(exe string, args []string) ([]string, error) {
	if !strings.ContainsRune(exe, '/') && !strings.ContainsRune(exe, filepath.Separator) {
		return args, nil // started through PATH: not a test's symlink
	}
	name := strings.TrimSuffix(exe, ".exe") + testArgsSuffix
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return args, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading arguments from %s: %w", name, err)
	}
	var out []string
	if len(data) > 0 {
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			out = append(out, envRefs().ReplaceAllStringFunc(line, func(ref string) string {
				return os.Getenv(ref[2 : len(ref)-1])
			}))
		}
	}
	return append(out, args...), nil
}

var envRefs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{[A-Z_][A-Z0-9_]*\}`) })
