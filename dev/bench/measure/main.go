// Command measure runs a command several times and reports its median wall
// time and peak resident set size, and checks that every run printed the same
// stdout.
//
// Usage:
//
//	go run ./dev/bench/measure [-n 5] [-warmup 1] [-dir DIR] [-stdout FILE] [-label NAME] -- CMD [ARGS...]
//
// A human-readable summary goes to stderr. Stdout gets one line of
// space-separated key=value pairs for scripts:
//
//	label=krm runs=5 median_ms=812.3 min_ms=801.0 max_ms=830.9 cpu_ms=1510.2 peak_rss_kb=123456 stdout_bytes=3947366 docs=3978 sha256=...
//
// cpu_ms is the median user+system CPU time. peak_rss_kb is the largest
// ru_maxrss over the measured runs (kilobytes on Linux). Warm-up runs are not
// timed but their output is checked too. Exit status is non-zero if a run
// fails or if the runs' stdout differ.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

type result struct {
	wall   time.Duration
	cpu    time.Duration
	maxrss int64 // kilobytes
	stdout []byte
}

func main() {
	n := flag.Int("n", 5, "number of measured runs")
	warmup := flag.Int("warmup", 1, "number of unmeasured warm-up runs")
	dir := flag.String("dir", "", "working directory for the command (default: current)")
	stdoutFile := flag.String("stdout", "", "write the command's stdout (from the first run) to this file")
	label := flag.String("label", "", "name to report (default: the command's base name)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: measure [-n N] [-warmup W] [-dir DIR] [-stdout FILE] [-label NAME] -- CMD [ARGS...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || *n < 1 || *warmup < 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *label == "" {
		*label = args[0][strings.LastIndex(args[0], "/")+1:]
	}
	if err := run(*label, args, *dir, *n, *warmup, *stdoutFile); err != nil {
		fmt.Fprintf(os.Stderr, "measure %s: %v\n", *label, err)
		os.Exit(1)
	}
}

func run(label string, args []string, dir string, n, warmup int, stdoutFile string) error {
	var (
		results []result
		first   []byte
		firstID string
	)
	for i := 0; i < warmup+n; i++ {
		id := fmt.Sprintf("run %d/%d", i+1-warmup, n)
		if i < warmup {
			id = fmt.Sprintf("warm-up %d/%d", i+1, warmup)
		}
		r, err := once(args, dir)
		if err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
		fmt.Fprintf(os.Stderr, "measure %s: %s: %.1f ms, cpu %.1f ms, maxrss %.1f MB, %d bytes\n",
			label, id, ms(r.wall), ms(r.cpu), float64(r.maxrss)/1024, len(r.stdout))
		if first == nil {
			first, firstID = r.stdout, id
			if stdoutFile != "" {
				if err := os.WriteFile(stdoutFile, first, 0o644); err != nil {
					return err
				}
			}
		} else if !bytes.Equal(first, r.stdout) {
			msg := fmt.Sprintf("stdout of %s (%d bytes, sha256 %s) differs from %s (%d bytes, sha256 %s)",
				id, len(r.stdout), sum(r.stdout), firstID, len(first), sum(first))
			if stdoutFile != "" {
				other := fmt.Sprintf("%s.run%d", stdoutFile, i+1)
				if err := os.WriteFile(other, r.stdout, 0o644); err == nil {
					msg += fmt.Sprintf("; compare %s %s", stdoutFile, other)
				}
			}
			return errors.New(msg)
		}
		if i >= warmup {
			r.stdout = nil
			results = append(results, r)
		}
	}

	walls := make([]time.Duration, len(results))
	cpus := make([]time.Duration, len(results))
	var peak int64
	for i, r := range results {
		walls[i], cpus[i] = r.wall, r.cpu
		peak = max(peak, r.maxrss)
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	med, cpu := median(walls), median(cpus)
	docs := countDocs(first)
	fmt.Fprintf(os.Stderr, "measure %s: median %.1f ms (min %.1f, max %.1f) over %d runs, median cpu %.1f ms, peak RSS %.1f MB, %d documents, stdout identical across %d runs\n",
		label, ms(med), ms(walls[0]), ms(walls[len(walls)-1]), len(walls), ms(cpu), float64(peak)/1024, docs, warmup+n)
	fmt.Printf("label=%s runs=%d median_ms=%.1f min_ms=%.1f max_ms=%.1f cpu_ms=%.1f peak_rss_kb=%d stdout_bytes=%d docs=%d sha256=%s\n",
		label, len(walls), ms(med), ms(walls[0]), ms(walls[len(walls)-1]), ms(cpu), peak, len(first), docs, sum(first))
	return nil
}

// once runs the command with stdout and stderr sent to temporary files, so the
// child writes straight to them and this process does no copying while timed.
func once(args []string, dir string) (result, error) {
	out, err := os.CreateTemp("", "measure-stdout-*")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	errf, err := os.CreateTemp("", "measure-stderr-*")
	if err != nil {
		return result{}, err
	}
	defer os.Remove(errf.Name())
	defer errf.Close()

	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdin = nil
	cmd.Stdout = out
	cmd.Stderr = errf
	start := time.Now()
	runErr := cmd.Run()
	wall := time.Since(start)
	if runErr != nil {
		stderr, _ := os.ReadFile(errf.Name())
		return result{}, fmt.Errorf("%s: %v\n--- stderr (last 2000 bytes) ---\n%s", strings.Join(args, " "), runErr, tail(stderr, 2000))
	}
	stdout, err := os.ReadFile(out.Name())
	if err != nil {
		return result{}, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return result{}, errors.New("no rusage available on this platform")
	}
	return result{
		wall:   wall,
		cpu:    cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		maxrss: ru.Maxrss,
		stdout: stdout,
	}, nil
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// countDocs counts YAML documents in a `kustomize build` style stream, in which
// documents are separated by "---" lines.
func countDocs(b []byte) int {
	if len(bytes.TrimSpace(b)) == 0 {
		return 0
	}
	n := 1
	if bytes.HasPrefix(b, []byte("---\n")) {
		n = 0
	}
	return n + bytes.Count(b, []byte("\n---\n"))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
