package secret

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Limits of the external secret command.
const (
	CommandTimeout   = 3 * time.Second
	CommandMaxOutput = 1 << 20 // bytes of standard output
)

// errOutputCap marks output past the cap.
var errOutputCap = errors.New("output exceeds the cap")

// Command is the external read-only backend: Line runs through /bin/sh -c with an
// environment of only PINCER_SECRET_KEY=<name>, PATH and HOME. Its standard output
// is either the value alone (one non-empty line) or lines "name=value", of which
// the one for the requested name is used. A non-zero exit, a timeout (the whole
// process group is killed) or more than MaxOutput bytes of output means "no value";
// its standard error is discarded, never shown. Values it prints are never copied
// anywhere.
type Command struct {
	Line      string
	Getenv    func(string) string // source of PATH and HOME
	Timeout   time.Duration       // 0: CommandTimeout
	MaxOutput int                 // 0: CommandMaxOutput
}

// NewCommand returns the command backend for line, taking PATH and HOME from getenv.
func NewCommand(line string, getenv func(string) string) *Command {
	return &Command{Line: line, Getenv: getenv}
}

// Name is "secret command".
func (c *Command) Name() string { return "secret command (PINCER_SECRET_COMMAND)" }

// Get runs the command for name.
func (c *Command) Get(ctx context.Context, name string) (string, error) {
	timeout, max := c.Timeout, c.MaxOutput
	if timeout <= 0 {
		timeout = CommandTimeout
	}
	if max <= 0 {
		max = CommandMaxOutput
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", c.Line)
	// Not in the workspace, which the model writes: `python3 -m keyring …`
	// there imported a planted keyring/__main__.py (red team r24d F5).
	// PYTHONSAFEPATH (Python 3.11+) keeps the current and the script's
	// directory off sys.path anyway.
	cmd.Dir = "/"
	cmd.Env = []string{"PINCER_SECRET_KEY=" + name, "PYTHONSAFEPATH=1"}
	if c.Getenv != nil {
		for _, k := range []string{"PATH", "HOME"} {
			if v := c.Getenv(k); v != "" {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
	}
	out := &capWriter{max: max}
	cmd.Stdout = out
	cmd.Stderr = nil // discarded
	cmd.WaitDelay = 200 * time.Millisecond
	setProcessGroup(cmd)
	err := cmd.Run()
	defer clear(out.buf.Bytes())
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return "", fmt.Errorf("%s: %w after %s", c.Name(), errTimeout, timeout)
	case out.over:
		return "", fmt.Errorf("%s: %w of %d bytes", c.Name(), errOutputCap, max)
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("%s failed for %s: exit status %d", c.Name(), name, ee.ExitCode())
		}
		return "", fmt.Errorf("%s failed for %s: %v", c.Name(), name, err)
	}
	v, ok := parseCommandOutput(out.buf.String(), name)
	if !ok {
		return "", fmt.Errorf("%w from the %s", ErrNotFound, c.Name())
	}
	return v, nil
}

// parseCommandOutput finds name's value in out: the line "name=value", else the
// only non-empty line when it is not itself a name=value pair of another secret
// (a pair's name contains ':' and no space before the '=', as "provider:openai").
func parseCommandOutput(out, name string) (string, bool) {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, name+"="); ok {
			return strings.TrimSpace(v), strings.TrimSpace(v) != ""
		}
	}
	if len(lines) != 1 {
		return "", false
	}
	if k, _, ok := strings.Cut(lines[0], "="); ok && strings.Contains(k, ":") && !strings.ContainsAny(k, " \t") {
		return "", false // a pair for some other secret
	}
	return lines[0], true
}

// capWriter keeps at most max bytes and then fails, which closes the pipe.
type capWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
}

// Write appends p, or fails once the total would pass the cap.
func (w *capWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.max {
		w.over = true
		return 0, errOutputCap
	}
	return w.buf.Write(p)
}
