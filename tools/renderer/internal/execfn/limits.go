package execfn

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Limits of one exec function run (docs/cli.md, "Limits").
const (
	// TimeoutAnnotation on a config object sets its function's timeout.
	TimeoutAnnotation = "rules-krm.dev/function-timeout"
	// DefaultTimeout bounds a run's wall-clock time unless the config sets
	// TimeoutAnnotation.
	DefaultTimeout = 2 * time.Minute
	// MaxTimeout is the most TimeoutAnnotation can ask for.
	MaxTimeout = 30 * time.Minute
	// MaxStdout bounds what a function may write on stdout.
	MaxStdout = 128 << 20
	// keptStderr is how much of a function's stderr krm keeps (the end).
	keptStderr = 64 << 10
	// waitDelay is how long krm waits, after a function exits, for
	// processes it started that still hold its stdout or stderr.
	waitDelay = 2 * time.Second
)

// timeoutOf reads TimeoutAnnotation from the config object's annotations.
func timeoutOf(annotations map[string]string) (time.Duration, error) {
	v, ok := annotations[TimeoutAnnotation]
	if !ok {
		return DefaultTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 || d > MaxTimeout {
		return 0, fmt.Errorf("annotation %s: %q must be a duration up to %s, like 5m", TimeoutAnnotation, v, MaxTimeout)
	}
	return d, nil
}

// capped keeps at most max bytes; past that it calls over (once) and
// refuses more.
type capped struct {
	buf  []byte
	max  int
	over func()
	hit  bool
}

func (c *capped) Write(p []byte) (int, error) {
	if len(c.buf)+len(p) > c.max {
		if !c.hit {
			c.hit = true
			c.over()
		}
		return 0, errors.New("output limit reached")
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it and counts them all.
type tailBuffer struct {
	buf   []byte
	max   int
	total int64
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.total += int64(len(p))
	t.buf = append(t.buf, p...)
	if extra := len(t.buf) - t.max; extra > t.max {
		t.buf = append([]byte(nil), t.buf[extra:]...)
	}
	return len(p), nil
}

// Bytes is what was kept: the last max bytes.
func (t *tailBuffer) Bytes() []byte {
	if extra := len(t.buf) - t.max; extra > 0 {
		t.buf = t.buf[extra:]
	}
	return t.buf
}

// note says how much was left out, if anything.
func (t *tailBuffer) note() string {
	if n := len(t.Bytes()); int64(n) < t.total {
		return fmt.Sprintf(" (the last %d of %d bytes)", n, t.total)
	}
	return ""
}

// runBounded runs cmd in a process group of its own, kills the group when
// the timeout passes, stdout grows past MaxStdout or krm gets SIGINT or
// SIGTERM (interrupts), and always kills what is left of the group when
// the function exits.
func runBounded(cmd *exec.Cmd, timeout time.Duration) (stdout []byte, stderr *tailBuffer, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var mu sync.Mutex
	var killed string
	kill := func(why string) {
		mu.Lock()
		defer mu.Unlock()
		if killed == "" {
			killed = why
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	out := &capped{max: MaxStdout, over: func() { kill(fmt.Sprintf("it wrote more than %d MiB on stdout", MaxStdout>>20)) }}
	stderr = &tailBuffer{max: keptStderr}
	cmd.Stdout, cmd.Stderr = out, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = waitDelay
	release := interrupts.hold()
	if err := cmd.Start(); err != nil {
		release()
		return nil, stderr, err
	}
	interrupts.add(cmd.Process.Pid, kill)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			kill(fmt.Sprintf("it ran longer than %s (raise it with the annotation %s, up to %s)", timeout, TimeoutAnnotation, MaxTimeout))
		case <-done:
		}
	}()
	err = cmd.Wait()
	close(done)
	// Processes the function started and left behind go too.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	interrupts.remove(cmd.Process.Pid)
	s := release()
	mu.Lock()
	defer mu.Unlock()
	if s != nil && killed == "" {
		killed = interruptedBy(s) // a signal as the function ended fails it too
	}
	if killed != "" {
		return nil, stderr, fmt.Errorf("krm stopped it: %s", killed)
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		return nil, stderr, fmt.Errorf("it exited, but processes it started kept its stdout or stderr open; krm killed them")
	}
	return out.buf, stderr, err
}
