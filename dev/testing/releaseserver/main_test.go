package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rules-krm/rules_krm/dev/testing/bazeltest"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	archive := "/v1.2.3/krm-1.2.3-linux_amd64.tar.gz"
	if err := os.MkdirAll(filepath.Join(dir, "v1.2.3"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, archive), []byte("archive bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	config, served := filepath.Join(out, "downloader.cfg"), filepath.Join(out, "served.log")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, dir, config, served) }()
	defer func() {
		cancel()
		<-done
	}()

	var text []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if text, err = os.ReadFile(config); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no downloader config after 10 s: %v", err)
		}
	}
	m := regexp.MustCompile(`^rewrite github\.com/rules-krm/rules_krm/releases/download/\(\.\*\) (http://127\.0\.0\.1:[0-9]+)/\$1\n`).FindSubmatch(text)
	if m == nil {
		t.Fatalf("downloader config:\n%s", text)
	}
	url := string(m[1])
	// Offline, every other host is blocked; online, the registry stays reachable.
	rest, block := string(text[len(m[0]):]), "allow 127.0.0.1\nblock *\n"
	if bazeltest.Offline() != (rest == block) || (rest != block && rest != "") {
		t.Errorf("downloader config (offline: %v):\n%s", bazeltest.Offline(), text)
	}
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(archive); code != http.StatusOK || body != "archive bytes" {
		t.Errorf("GET %s: %d %q", archive, code, body)
	}
	if code, _ := get("/v9.9.9/missing.tar.gz"); code != http.StatusNotFound {
		t.Errorf("GET of a missing archive: %d, want 404", code)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
	done <- nil // for the deferred receive
	if b, _ := os.ReadFile(served); string(b) != archive+"\n" {
		t.Errorf("served log = %q, want only the archive", b)
	}
}

func TestRunNoDir(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	err := run(context.Background(), missing, filepath.Join(t.TempDir(), "c"), "")
	if err == nil || !strings.Contains(err.Error(), "-dir "+missing+": not a directory") {
		t.Errorf("run of a missing -dir: %v", err)
	}
}
