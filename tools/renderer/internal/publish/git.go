package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/rules-krm/rules_krm/tools/renderer/internal/escape"
	"github.com/rules-krm/rules_krm/tools/renderer/internal/scrub"
)

// git runs the git command line in one repository. The git CLI (not a Go
// git library) so that a publish reaches a repository the way the user's
// git does: credential helpers, SSH configuration, url.insteadOf, proxies.
type git struct {
	exe string   // the git executable
	dir string   // the repository (--git-dir)
	env []string // the whole environment of each git process
	// hide is the temporary repository's path, replaced in messages: errors
	// name what the user gave, never a temporary path.
	hide string
	// secrets are masked in git's messages (scrub.Mask), as are URLs'
	// userinfo.
	secrets []string
}

// maxOutput bounds what one git command may print to us (object names,
// ls-tree listings): a hostile remote cannot make krm hold more.
const maxOutput = 64 << 20

// run runs git with args, stdin as its input, and returns its stdout. A
// failure's error holds git's own message (its last lines of stderr).
func (g *git) run(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	return g.exec(ctx, stdin, append([]string{"--git-dir=" + g.dir}, args...), args[0])
}

// runIn runs git with args in the work tree dir.
func (g *git) runIn(ctx context.Context, dir string, args ...string) (string, error) {
	return g.exec(ctx, nil, append([]string{"-C", dir}, args...), args[0])
}

func (g *git) exec(ctx context.Context, stdin io.Reader, full []string, sub string) (string, error) {
	cmd := exec.CommandContext(ctx, g.exe, full...)
	cmd.Env = g.env
	cmd.Stdin = stdin
	// When ctx ends (a timeout, SIGINT, SIGTERM) git and all it started
	// (ssh, git-remote-https, a local remote's receive-pack and hooks) are
	// killed, as a process group of its own: killing git alone would leave
	// them to finish the push without krm. Then stop waiting for the pipes
	// soon after.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout limitedBuffer
	var stderr limitedBuffer
	stdout.max, stderr.max = maxOutput, 64<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", fmt.Errorf("git %s: %w", sub, ctx.Err())
	}
	if stdout.over {
		return "", fmt.Errorf("git %s: printed more than %d MiB", sub, maxOutput>>20)
	}
	if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", fmt.Errorf("running git (%s): %w", g.exe, err)
		}
		return "", &gitError{args: sub, msg: g.clean(stderr.String())}
	}
	return stdout.String(), nil
}

// clean is git's message without the temporary repository's path,
// credentials, its hints and all but its last lines, with the terminal
// controls a remote's hook may print shown as escapes (a carriage return,
// which git's progress uses to overwrite a line, ends one).
func (g *git) clean(msg string) string {
	if g.hide != "" {
		msg = strings.ReplaceAll(msg, g.hide, "<temporary repository>")
	}
	msg = scrub.URLs(scrub.Mask(msg, g.secrets...))
	var lines []string
	for _, l := range strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' }) {
		l = strings.TrimRight(l, " \t")
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "hint:") {
			lines = append(lines, escape.Line(l))
		}
	}
	if len(lines) > 6 {
		lines = lines[len(lines)-6:]
	}
	return strings.Join(lines, "\n")
}

// gitError is a git command that exited non-zero.
type gitError struct {
	args string // the git subcommand
	msg  string // what git printed on stderr
}

func (e *gitError) Error() string {
	if e.msg == "" {
		return "git " + e.args + " failed"
	}
	return "git " + e.args + ": " + e.msg
}

// limitedBuffer keeps the first max bytes written and notes an overflow
// instead of growing without bound.
// The buffer is a field, not embedded: an embedded bytes.Buffer's ReadFrom would let
// io.Copy, as os/exec uses it, fill it past max.
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); len(p) > room {
		b.over = true
		if room > 0 {
			b.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *limitedBuffer) String() string { return b.buf.String() }
