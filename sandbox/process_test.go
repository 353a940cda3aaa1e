package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangGuard is far longer than any of these commands should take and far shorter
// than the sleeps they start: a run that lasts this long did not kill its group.
const hangGuard = 30 * time.Second

func bashCmd(script string) Command {
	return Command{Path: "bash", Args: []string{"-c", script}}
}

func runGuarded(t *testing.T, ctx context.Context, c Command) Result {
	t.Helper()
	type ret struct {
		res Result
		err error
	}
	done := make(chan ret, 1)
	go func() {
		res, err := Run(ctx, c)
		done <- ret{res, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Run: %v", r.err)
		}
		return r.res
	case <-time.After(hangGuard):
		t.Fatalf("Run did not return within %v", hangGuard)
		return Result{}
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		cmd      Command
		wantOut  string // exact output, unless contains is set
		contains bool
		wantCode int
	}{
		{name: "stdout", cmd: bashCmd("echo hello"), wantOut: "hello\n"},
		{name: "stderr combined in order", cmd: bashCmd("echo out; echo err >&2; echo out2"), wantOut: "out\nerr\nout2\n"},
		{name: "exit code", cmd: bashCmd("echo bye; exit 3"), wantOut: "bye\n", wantCode: 3},
		{name: "killed by signal", cmd: bashCmd("kill -KILL $$"), wantOut: "", wantCode: 128 + 9},
		{name: "stdin is /dev/null", cmd: bashCmd("cat; echo end"), wantOut: "end\n"},
		{name: "working directory", cmd: Command{Path: "pwd", Dir: dir}, wantOut: dir + "\n"},
		{name: "non-interactive env", cmd: bashCmd(`echo "$PAGER $GIT_PAGER $GIT_EDITOR $EDITOR $VISUAL $GIT_TERMINAL_PROMPT"`), wantOut: "cat cat true true true 0\n"},
		{name: "extra env wins", cmd: Command{Path: "bash", Args: []string{"-c", "echo $PAGER $FOO"}, Env: []string{"PAGER=less", "FOO=bar"}}, wantOut: "less bar\n"},
		{name: "own process group", cmd: bashCmd(`[ "$(ps -o pgid= $$ | tr -d ' ')" = "$$" ] && echo leader`), wantOut: "leader\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runGuarded(t, context.Background(), tt.cmd)
			if res.Output != tt.wantOut {
				t.Errorf("output = %q, want %q", res.Output, tt.wantOut)
			}
			if res.ExitCode != tt.wantCode {
				t.Errorf("exit code = %d, want %d", res.ExitCode, tt.wantCode)
			}
			if res.TimedOut || res.Canceled {
				t.Errorf("TimedOut=%v Canceled=%v, want neither", res.TimedOut, res.Canceled)
			}
		})
	}
}

func TestRunStartFailure(t *testing.T) {
	_, err := Run(context.Background(), Command{Path: "/nonexistent/program"})
	if err == nil {
		t.Fatal("want an error for a program that does not exist")
	}
}

// processGone reports whether pid has exited (or is a zombie nobody reaped yet).
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// The state follows the ")" that closes the command name.
	i := strings.LastIndexByte(string(stat), ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRunKillsGroup(t *testing.T) {
	tests := []struct {
		name     string
		script   string // writes the pid of a background sleep to $PIDFILE
		timeout  time.Duration
		cancel   bool // cancel ctx instead of using a timeout
		wantOut  string
		timedOut bool
		canceled bool
	}{
		{
			name:     "timeout kills background and foreground",
			script:   `echo started; sleep 100 & echo $! > "$PIDFILE"; sleep 100`,
			timeout:  300 * time.Millisecond,
			wantOut:  "started\n",
			timedOut: true,
		},
		{
			name:     "cancel kills the group",
			script:   `sleep 100 & echo $! > "$PIDFILE"; sleep 100`,
			cancel:   true,
			canceled: true,
		},
		{
			name:     "TERM ignored: SIGKILL after grace",
			script:   `trap '' TERM; sleep 100 & echo $! > "$PIDFILE"; sleep 100`,
			timeout:  300 * time.Millisecond,
			timedOut: true,
		},
		{
			name:    "background job holding the pipe after a normal exit",
			script:  `(sleep 100; echo never) & echo $! > "$PIDFILE"; echo done`,
			wantOut: "done\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c := bashCmd(tt.script)
			c.Env = []string{"PIDFILE=" + pidFile}
			c.Timeout = tt.timeout
			c.KillGrace = 200 * time.Millisecond
			if tt.cancel {
				go func() {
					// Cancel once the background job is running.
					for {
						if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
							cancel()
							return
						}
						time.Sleep(10 * time.Millisecond)
					}
				}()
			}
			res := runGuarded(t, ctx, c)
			if res.Output != tt.wantOut {
				t.Errorf("output = %q, want %q", res.Output, tt.wantOut)
			}
			if res.TimedOut != tt.timedOut || res.Canceled != tt.canceled {
				t.Errorf("TimedOut=%v Canceled=%v, want %v %v", res.TimedOut, res.Canceled, tt.timedOut, tt.canceled)
			}
			waitGone(t, readPid(t, pidFile))
		})
	}
}

func TestRunOutputLimit(t *testing.T) {
	res := runGuarded(t, context.Background(), Command{
		Path:      "bash",
		Args:      []string{"-c", `printf 'BEGIN'; head -c 100000 /dev/zero | tr '\0' x; printf 'END'`},
		MaxOutput: 100,
	})
	if len(res.Output) != 100 {
		t.Fatalf("kept %d bytes, want 100", len(res.Output))
	}
	if !strings.HasPrefix(res.Output, "BEGIN") || !strings.HasSuffix(res.Output, "END") {
		t.Fatalf("head or tail lost: %q", res.Output)
	}
	if want := int64(5 + 100000 + 3 - 100); res.OmittedBytes != want {
		t.Fatalf("OmittedBytes = %d, want %d", res.OmittedBytes, want)
	}
}

func TestHeadTail(t *testing.T) {
	tests := []struct {
		name     string
		limit    int
		writes   []string
		want     string
		wantDrop int64
	}{
		{name: "under limit", limit: 10, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly limit", limit: 6, writes: []string{"abcdef"}, want: "abcdef"},
		{name: "one big write", limit: 4, writes: []string{"abcdefgh"}, want: "abgh", wantDrop: 4},
		{name: "many small writes", limit: 4, writes: []string{"a", "b", "c", "d", "e", "f", "g"}, want: "abfg", wantDrop: 3},
		{name: "tail compaction", limit: 6, writes: []string{"abc", "12", "34", "56", "78", "9"}, want: "abc789", wantDrop: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHeadTail(tt.limit)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			got, drop := b.result()
			if got != tt.want || drop != tt.wantDrop {
				t.Fatalf("result = %q, %d; want %q, %d", got, drop, tt.want, tt.wantDrop)
			}
		})
	}
}

func TestCommandEnv(t *testing.T) {
	t.Setenv("PAGER", "less")
	t.Setenv("PINCER_TEST_DROPPED", "dropped")
	t.Setenv("PINCER_TEST_KEEP", "kept")
	t.Setenv("LC_PINCER_TEST", "lc")
	env := CommandEnvAllow([]string{"PINCER_TEST_KEEP"}, "EDITOR=vim")
	got := map[string][]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = append(got[k], v)
	}
	want := map[string]string{"PAGER": "cat", "EDITOR": "vim", "GIT_TERMINAL_PROMPT": "0", "PINCER_TEST_KEEP": "kept", "LC_PINCER_TEST": "lc"}
	for k, v := range want {
		if len(got[k]) != 1 || got[k][0] != v {
			t.Errorf("%s = %v, want exactly [%s]", k, got[k], v)
		}
	}
	if v, ok := got["PINCER_TEST_DROPPED"]; ok {
		t.Errorf("PINCER_TEST_DROPPED = %v, want it dropped", v)
	}
}
