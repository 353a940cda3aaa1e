package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/sandbox"
)

// TestMain lets this test binary stand in for pincer as the sandbox helper
// (Bash with Env.Sandbox re-executes the running binary as `sandbox-exec`).
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	code := m.Run()
	sandbox.StopWarm() // the helpers pre-started for the next Bash call
	os.Exit(code)
}

// bashPolicies are the ways Bash runs commands: without a policy, and sandboxed.
func bashPolicies() map[string]*sandbox.Policy {
	pol := sandbox.DefaultPolicy()
	return map[string]*sandbox.Policy{"no policy": nil, "sandboxed": &pol}
}

func TestBash(t *testing.T) {
	env, root := newTestEnv(t)
	writeTestFile(t, root, "hello.txt", "hi there\n")
	tests := []struct {
		name    string
		in      BashInput
		want    string // exact output, when set
		has     []string
		isError bool
		wantErr string
	}{
		{name: "echo", in: BashInput{Command: "echo hello"}, want: "hello"},
		{name: "runs in the workspace root", in: BashInput{Command: "pwd; cat hello.txt"}, want: root + "\nhi there"},
		{name: "stderr included", in: BashInput{Command: "echo out; echo err >&2"}, want: "out\nerr"},
		{name: "non-zero exit", in: BashInput{Command: "echo failing; exit 3"}, want: "failing\nExit code 3", isError: true},
		{name: "non-zero exit without output", in: BashInput{Command: "false"}, want: "Exit code 1", isError: true},
		{name: "no output", in: BashInput{Command: "true"}, want: "(no output)"},
		{name: "stdin is empty", in: BashInput{Command: "cat; echo done"}, want: "done"},
		{name: "bash features", in: BashInput{Command: "a=(1 2 3); echo ${#a[@]}"}, want: "3"},
		{name: "pager disabled", in: BashInput{Command: "echo $PAGER"}, want: "cat"},
		// The timeout is far longer than the sandboxed helper takes to start under
		// load (300 ms was not), and far shorter than the sleep: the outcome is the
		// timeout, with the output printed before it.
		{name: "timeout with partial output", in: BashInput{Command: "echo partial; sleep 100", Timeout: 5000},
			has: []string{"partial", "Command timed out after 5000 ms"}, isError: true},
		{name: "background without a shell set", in: BashInput{Command: "echo", RunInBackground: true}, wantErr: "background shells are not available"},
		{name: "timeout too large", in: BashInput{Command: "echo", Timeout: 600001}, wantErr: "timeout must be between"},
		{name: "empty command", in: BashInput{Command: "  "}, wantErr: "command is required"},
	}
	for policyName, policy := range bashPolicies() {
		env.Sandbox = policy
		for _, tt := range tests {
			t.Run(policyName+"/"+tt.name, func(t *testing.T) {
				res, err := runTool(t, Bash{KillGrace: 200 * time.Millisecond}, env, tt.in)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error = %v, want %q", err, tt.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if tt.want != "" && res.Output != tt.want {
					t.Errorf("output = %q, want %q", res.Output, tt.want)
				}
				for _, s := range tt.has {
					if !strings.Contains(res.Output, s) {
						t.Errorf("output %q lacks %q", res.Output, s)
					}
				}
				if res.IsError != tt.isError {
					t.Errorf("IsError = %v, want %v", res.IsError, tt.isError)
				}
			})
		}
	}
}

// TestBashTimeoutKillsGroup: a background job and a foreground one both sleeping
// 100 s must not keep the call waiting after the timeout.
func TestBashTimeoutKillsGroup(t *testing.T) {
	env, _ := newTestEnv(t)
	done := make(chan Result, 1)
	go func() {
		res, err := runTool(t, Bash{KillGrace: 200 * time.Millisecond}, env, BashInput{Command: "sleep 100 & sleep 100", Timeout: 300})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if !strings.Contains(res.Output, "Command timed out after 300 ms") || !res.IsError {
			t.Fatalf("result = %+v", res)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Bash did not return after its timeout: the process group survived")
	}
}

func TestBashCancel(t *testing.T) {
	env, _ := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	res, err := Typed(Bash{KillGrace: 200 * time.Millisecond}).Run(ctx, env, mustJSON(t, BashInput{Command: "sleep 100"}))
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Output, "interrupted") {
		t.Fatalf("result = %+v", res)
	}
}

func TestBashOutputTruncation(t *testing.T) {
	env, _ := newTestEnv(t)
	// 5 + 99992 + 3 = 100000 characters, no newline.
	cmd := `printf START; head -c 99992 /dev/zero | tr '\0' x; printf END`
	res, err := runTool(t, Bash{}, env, BashInput{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	half := BashMaxOutputChars / 2
	want := "START" + strings.Repeat("x", half-5) +
		fmt.Sprintf("\n\n... [%d characters truncated] ...\n\n", 100000-BashMaxOutputChars) +
		strings.Repeat("x", half-3) + "END"
	if res.Output != want {
		t.Fatalf("output (%d chars) starts %q, ends %q", len(res.Output), res.Output[:40], res.Output[len(res.Output)-80:])
	}
}

func TestCutMiddle(t *testing.T) {
	tests := []struct {
		s       string
		max     int
		dropped int64
		want    string
	}{
		{"abcdef", 10, 0, "abcdef"},
		{"abcdef", 6, 0, "abcdef"},
		{"abcdefgh", 4, 0, "ab\n\n... [4 characters truncated] ...\n\ngh"},
		{"ééééé", 2, 0, "é\n\n... [3 characters truncated] ...\n\né"},
		{"abcd", 10, 100, "ab\n\n... [100 characters truncated] ...\n\ncd"},
	}
	for _, tt := range tests {
		if got := cutMiddle(tt.s, tt.max, tt.dropped); got != tt.want {
			t.Errorf("cutMiddle(%q, %d, %d) = %q, want %q", tt.s, tt.max, tt.dropped, got, tt.want)
		}
	}
}

// TestBashSandbox: with Env.Sandbox set, commands cannot see pincer's API keys,
// cannot write outside the workspace and the temp dir, and cannot change the
// protected paths; without it they still cannot see the keys.
func TestBashSandbox(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-bash-test")
	t.Setenv("PINCER_API_KEY", "pk-bash-test")
	env, root := newTestEnv(t)
	for policyName, policy := range bashPolicies() {
		env.Sandbox = policy
		res, err := runTool(t, Bash{}, env, BashInput{Command: "env"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Output, "bash-test") || !strings.Contains(res.Output, "HOME=") {
			t.Errorf("%s: environment:\n%s", policyName, res.Output)
		}
	}

	pol := sandbox.DefaultPolicy()
	env.Sandbox = &pol
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(home, fmt.Sprintf("pincer-bash-test-%d", time.Now().UnixNano()))
	t.Cleanup(func() { os.Remove(outside) })
	writeTestFile(t, root, ".pincer/settings.json", "{}")
	tests := []struct {
		cmd     string
		isError bool
	}{
		{cmd: "echo ok > inside.txt && cat inside.txt"},
		{cmd: "touch " + outside, isError: true},
		{cmd: "echo x > .pincer/settings.json", isError: true},
	}
	for _, tt := range tests {
		res, err := runTool(t, Bash{}, env, BashInput{Command: tt.cmd})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tt.isError {
			t.Errorf("%q: IsError = %v, output %q", tt.cmd, res.IsError, res.Output)
		}
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Errorf("%s was created", outside)
	}
	if got := readTestFile(t, root, ".pincer/settings.json"); got != "{}" {
		t.Errorf(".pincer/settings.json = %q", got)
	}
}

func TestBashSpillsLongOutputToAFile(t *testing.T) {
	env, _ := newTestEnv(t)
	env.SpillDir = t.TempDir()
	env.ToolCallID = "call-spill"
	cmd := `printf START; head -c 199990 /dev/zero | tr '\0' x; printf END`
	res, err := runTool(t, Bash{}, env, BashInput{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	if len([]rune(res.Output)) > BashMaxOutputChars+200 || !strings.HasPrefix(res.Output, "START") {
		t.Fatalf("shown output has %d chars", len(res.Output))
	}
	path := filepath.Join(env.SpillDir, "call-spill.txt")
	if !strings.Contains(res.Output, path) {
		t.Fatalf("the result does not name %s: ...%s", path, res.Output[len(res.Output)-300:])
	}
	full, err := os.ReadFile(path)
	if err != nil || len(full) != 199998 || !strings.HasSuffix(string(full), "END") {
		t.Fatalf("spilled file: %d bytes, %v", len(full), err)
	}
}
