package hook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTimeoutKillsGroup: a hook past its timeout returns without blocking the
// call, and its child and a grandchild that ignores SIGTERM are killed.
func TestTimeoutKillsGroup(t *testing.T) {
	proj := t.TempDir()
	h := script(t, proj, "slow.sh", `d="$CLAUDE_PROJECT_DIR"
sleep 10 &
echo $! > "$d/child.pid"
sh -c 'trap "" TERM; echo $$ > "$1/grandchild.pid"; sleep 10; touch "$1/survived"' sh "$d" &
sleep 10
echo "too late" >&2
exit 2`)
	r := runner(t, proj, map[Event][]Def{PreToolUse: {{Command: h, Timeout: time.Second}}})
	start := time.Now()
	got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	// Not a performance assertion: it proves the hook's 10 s sleep was cut short.
	if el := time.Since(start); el > 8*time.Second {
		t.Errorf("PreToolUse took %v", el)
	}
	if got.Decision != "" || len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "timed out") {
		t.Errorf("got %+v", got)
	}
	waitGone(t, readPid(t, filepath.Join(proj, "child.pid")))
	waitGone(t, readPid(t, filepath.Join(proj, "grandchild.pid")))
	if exists(filepath.Join(proj, "survived")) {
		t.Error("grandchild survived")
	}
}

// TestCancelKillsHook: ending the caller's context ends the hooks.
func TestCancelKillsHook(t *testing.T) {
	proj := t.TempDir()
	h := script(t, proj, "slow.sh", `echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"; sleep 10`)
	r := one(t, proj, Stop, "", h)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan StopResult)
	go func() { done <- r.Stop(ctx, Common{}, false) }()
	pid := readPid(t, filepath.Join(proj, "hook.pid"))
	cancel()
	got := <-done
	if got.Block || len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "cancelled") {
		t.Errorf("got %+v", got)
	}
	waitGone(t, pid)
}

// TestHooksRunInParallel: each hook waits a second and then looks for the other's
// start marker; both see it only if they ran at the same time.
func TestHooksRunInParallel(t *testing.T) {
	proj := t.TempDir()
	body := func(me, other string) string {
		return `d="$CLAUDE_PROJECT_DIR"; touch "$d/` + me + `.start"; sleep 1; if [ -e "$d/` + other + `.start" ]; then touch "$d/` + me + `.saw.` + other + `"; fi`
	}
	r := runner(t, proj, map[Event][]Def{PostToolUse: {
		{Command: script(t, proj, "a.sh", body("a", "b"))},
		{Command: script(t, proj, "b.sh", body("b", "a"))},
	}})
	if got := r.PostToolUse(t.Context(), Common{}, "Bash", nil, "c", "", false); len(got.Errors) > 0 {
		t.Fatalf("errors: %v", got.Errors)
	}
	for _, f := range []string{"a.saw.b", "b.saw.a"} {
		if !exists(filepath.Join(proj, f)) {
			t.Errorf("%s missing: the hooks did not overlap", f)
		}
	}
}

// TestEnvironmentAndDir: hooks run in the project directory with the parent's
// environment plus CLAUDE_PROJECT_DIR and PINCER_PROJECT_DIR.
func TestEnvironmentAndDir(t *testing.T) {
	proj := t.TempDir()
	t.Setenv("HOOK_TEST_PARENT", "inherited")
	t.Setenv("CLAUDE_PROJECT_DIR", "/stale")
	if err := os.MkdirAll(filepath.Join(proj, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	script(t, filepath.Join(proj, "scripts"), "env.sh",
		`printf '%s\n%s\n%s\n%s\n' "$CLAUDE_PROJECT_DIR" "$PINCER_PROJECT_DIR" "$(pwd -P)" "$HOOK_TEST_PARENT" > env.out`)
	r := one(t, proj, SessionStart, "", "./scripts/env.sh") // relative to the project
	if got := r.SessionStart(t.Context(), Common{}, "startup"); len(got.Errors) > 0 {
		t.Fatalf("errors: %v", got.Errors)
	}
	data, err := os.ReadFile(filepath.Join(proj, "env.out"))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(proj)
	want := proj + "\n" + proj + "\n" + real + "\ninherited\n"
	if string(data) != want {
		t.Errorf("env.out =\n%s\nwant\n%s", data, want)
	}
}

// TestIdenticalCommandsRunOnce: the same command configured twice (in two files,
// say) runs once per event.
func TestIdenticalCommandsRunOnce(t *testing.T) {
	proj := t.TempDir()
	h := script(t, proj, "count.sh", `echo x >> "$CLAUDE_PROJECT_DIR/count"`)
	r := runner(t, proj, map[Event][]Def{PreToolUse: {{Command: h, Source: "a"}, {Matcher: "Bash", Command: h, Source: "b"}}})
	r.PreToolUse(t.Context(), Common{}, "Bash", nil, "c")
	data, _ := os.ReadFile(filepath.Join(proj, "count"))
	if string(data) != "x\n" {
		t.Errorf("ran %d times", strings.Count(string(data), "x"))
	}
}

// TestBackgroundChildHoldingOutput: a hook that exits while a background child
// keeps stdout open still returns (after the kill grace), with what it printed.
func TestBackgroundChildHoldingOutput(t *testing.T) {
	proj := t.TempDir()
	h := script(t, proj, "bg.sh", `sleep 5 & echo $! > "$CLAUDE_PROJECT_DIR/bg.pid"; echo "context from hook"`)
	r := one(t, proj, UserPromptSubmit, "", h)
	r.killGrace = 100 * time.Millisecond
	got := r.UserPromptSubmit(t.Context(), Common{}, "x")
	if got.AdditionalContext != "context from hook" {
		t.Errorf("got %+v", got)
	}
	pid := readPid(t, filepath.Join(proj, "bg.pid"))
	t.Cleanup(func() { _ = killPid(pid) })
}

func TestOutputCapped(t *testing.T) {
	var c capped
	big := strings.Repeat("x", maxStream-10)
	n, err := c.Write([]byte(big))
	if n != len(big) || err != nil {
		t.Fatal(n, err)
	}
	n, err = c.Write([]byte(strings.Repeat("y", 100)))
	if n != 100 || err != nil {
		t.Fatal(n, err)
	}
	s := c.String()
	if !strings.HasSuffix(s, "yyyyyyyyyy\n[output truncated]") || len(s) != maxStream+len("\n[output truncated]") {
		t.Errorf("len %d, tail %q", len(s), s[len(s)-30:])
	}
}
