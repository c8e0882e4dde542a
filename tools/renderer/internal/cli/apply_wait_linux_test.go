//go:build linux

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/rules-krm/rules_krm/dev/testing/hostile"
	"github.com/rules-krm/rules_krm/dev/testing/kubeconfig"
)

// openPty opens a pseudo-terminal: krm writes to the terminal (tty), the test reads what a
// terminal would show from its other end (pty).
func openPty(t *testing.T) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pty.Close() })
	fd := int(pty.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return pty, tty
}

// A Widget whose name and Ready message carry terminal escapes, Ready=False for the first
// reads and Ready=True after: what its API server serves.
const waitName = "web\x1b]0;owned\x07\x1b[2J"

func waitServer(t *testing.T) string {
	t.Helper()
	var reads atomic.Int32
	widget := func(ready string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "Widget",
			"metadata": map[string]any{"name": waitName, "namespace": "default", "resourceVersion": "1", "generation": 1},
			"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": ready, "reason": "Starting",
				"message": "pulling \x1b[31mimage\r\u202e", "observedGeneration": 1}}}}
	}
	get := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ready := "False"
		if reads.Add(1) > 3 { // applyOne's read, then two rounds of the wait
			ready = "True"
		}
		hostile.JSON(http.StatusOK, widget(ready)).ServeHTTP(w, r)
	})
	const path = "/api/v1/namespaces/default/widgets/*"
	api := hostile.NewTLS(t).
		Handle("GET", "/version", hostile.JSON(http.StatusOK, map[string]string{"major": "1", "minor": "30", "gitVersion": "v1.30.0"})).
		Handle("GET", "/api/v1", hostile.JSON(http.StatusOK, map[string]any{"kind": "APIResourceList", "groupVersion": "v1",
			"resources": []map[string]any{{"name": "widgets", "kind": "Widget", "namespaced": true}}})).
		Handle("GET", path, get).
		Handle("PATCH", path, hostile.JSON(http.StatusOK, widget("False")))
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := kubeconfig.Write(kc, "test", kubeconfig.Context{Name: "test", Server: api.URL, CA: api.CAPEM, User: kubeconfig.User{Token: "t"}}); err != nil {
		t.Fatal(err)
	}
	return kc
}

// applyWait runs krm apply --wait with stdout on out (closed after), as Main gives it the
// process's stdout, and returns what read shows of it.
func applyWait(t *testing.T, out *os.File, read io.Reader) (int, string, string) {
	t.Helper()
	manifest := writeTemp(t, t.TempDir(), "widget.yaml",
		"apiVersion: v1\nkind: Widget\nmetadata:\n  name: \"web\\e]0;owned\\a\\e[2J\"\n  namespace: default\nspec:\n  size: 1\n")
	shown := make(chan string, 1)
	go func() {
		var b bytes.Buffer
		_, err := io.Copy(&b, read)
		if err != nil && !errors.Is(err, syscall.EIO) { // a pty's reader sees EIO once the terminal is closed
			t.Errorf("reading stdout: %v", err)
		}
		shown <- b.String()
	}()
	var stderr bytes.Buffer
	code := run([]string{"apply", "--kubeconfig", waitServer(t), "--context", "test", "--wait", "--timeout", "30s", manifest},
		streams{stdin: strings.NewReader(""), stdout: out, stderr: &stderr})
	out.Close()
	return code, <-shown, stderr.String()
}

const (
	waitShownName   = `Widget default/web\x1b]0;owned\x07\x1b[2J`
	waitShownReason = `Ready=False (Starting): pulling \x1b[31mimage\r\u202e`
)

// krm apply --wait on a terminal: the live line is drawn (a carriage return and erase redraw
// it in place), with the object's name and reason escaped.
func TestApplyWaitTerminal(t *testing.T) {
	pty, tty := openPty(t)
	code, shown, stderr := applyWait(t, tty, pty)
	shown = strings.ReplaceAll(shown, "\r\n", "\n") // the terminal's newline
	want := waitShownName + " unchanged\n[0/1 current] " + waitShownName + " InProgress: " + waitShownReason + "\r\x1b[K" +
		waitShownName + " current (generation 1)\n"
	if code != 0 || shown != want {
		t.Errorf("exit %d, the terminal shows\n%q\nwant\n%q\nstderr: %s", code, shown, want, stderr)
	}
	if rest := strings.ReplaceAll(shown, "\r\x1b[K", ""); strings.ContainsAny(rest, "\x1b\x07\r\u202e") {
		t.Errorf("a control character of the object reached the terminal: %q", shown)
	}
}

// On a pipe: plain lines, escaped the same.
func TestApplyWaitPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code, shown, stderr := applyWait(t, w, r)
	want := waitShownName + " unchanged\n[0/1 current] " + waitShownName + " InProgress: " + waitShownReason + "\n" +
		"[1/1 current] " + waitShownName + " current (generation 1)\n"
	if code != 0 || shown != want {
		t.Errorf("exit %d, the pipe has\n%q\nwant\n%q\nstderr: %s", code, shown, want, stderr)
	}
}
