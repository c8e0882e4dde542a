// Command releaseserver serves the release archives of dev/scripts/release.sh on loopback to
// Bazel, as TestPrebuilt does (dev/testing/integration/prebuilt_test.go), for the scripts
// that measure a consumer of the prebuilt renderer (dev/scripts/bench-prdiff.sh):
//
//	releaseserver -dir DIR -downloader-config FILE [-served FILE]
//
// DIR holds vVERSION/krm-VERSION-PLATFORM.tar.gz. Once it listens on a free 127.0.0.1 port,
// it writes FILE, the --experimental_downloader_config that rewrites rules_krm's release URLs
// to it (and, on offline machines, blocks every other host); each path it answers 200 is appended to the -served
// file. It serves until SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

func main() {
	dir := flag.String("dir", "", "the directory of the release archives (vVERSION/krm-*.tar.gz)")
	config := flag.String("downloader-config", "", "the Bazel downloader config to write once the server listens")
	served := flag.String("served", "", "a file to append the path of each download to")
	flag.Parse()
	if *dir == "" || *config == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: releaseserver -dir DIR -downloader-config FILE [-served FILE]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *dir, *config, *served); err != nil {
		fmt.Fprintln(os.Stderr, "releaseserver:", err)
		os.Exit(1)
	}
}

// run serves dir until ctx ends, after writing the downloader config.
func run(ctx context.Context, dir, config, served string) error {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("-dir %s: not a directory", dir)
	}
	var log *os.File
	var logErr error
	var mu sync.Mutex
	if served != "" {
		f, err := os.OpenFile(served, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		log = f
	}
	s, err := bazeltest.NewFileServer(dir, func(path string) {
		if log == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if _, err := fmt.Fprintln(log, path); err != nil && logErr == nil {
			logErr = err
		}
	})
	if err != nil {
		return err
	}
	defer s.Close()
	// Written whole or not at all: a script waits for the file to appear.
	tmp := filepath.Join(filepath.Dir(config), "."+filepath.Base(config)+".tmp")
	if err := os.WriteFile(tmp, []byte(bazeltest.DownloaderConfig(s.URL)), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, config); err != nil {
		return err
	}
	<-ctx.Done()
	mu.Lock()
	defer mu.Unlock()
	return errors.Join(logErr, s.Close())
}
