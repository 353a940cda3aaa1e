package e2e

// Issue 10, class 8: processes outlive their call and their agent. A Bash call's
// background processes — (…) &, setsid, nohup, double forks, daemonising
// interpreters — end with the call; after kill -9 of pincer mid-call nothing it
// started runs on; as root, mknod makes no device nodes; the process count is
// limited. Every payload waits, then touches a marker in the workspace (which the
// sandbox may write), so a survivor shows.

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// delayedTouch is the payload of the background forms: touch {P} after 3 s.
const delayedTouch = `sleep 3; touch {P}`

func backgroundForms() []attackForm {
	d := delayedTouch
	q := "'" + d + "'"
	return []attackForm{
		{Name: "subshell-bg", Cmd: `(` + d + `) >/dev/null 2>&1 &`},
		{Name: "group-bg", Cmd: `{ ` + d + `; } >/dev/null 2>&1 &`},
		{Name: "setsid-bg", Cmd: `setsid sh -c ` + q + ` >/dev/null 2>&1 &`},
		{Name: "setsid-fork", Cmd: `setsid -f sh -c ` + q + ` >/dev/null 2>&1`},
		{Name: "nohup-bg", Cmd: `nohup sh -c ` + q + ` >/dev/null 2>&1 &`},
		{Name: "nohup-setsid", Cmd: `nohup setsid sh -c ` + q + ` </dev/null >/dev/null 2>&1 &`},
		{Name: "double-fork", Cmd: `( (` + d + `) & ) >/dev/null 2>&1`},
		{Name: "sh-c-bg", Cmd: `sh -c '(` + d + `) &' >/dev/null 2>&1`},
		{Name: "bash-c-disown", Cmd: `bash -c 'trap "" HUP TERM; ` + d + `' >/dev/null 2>&1 & disown`},
		{Name: "trap-hup-bg", Cmd: `trap '' HUP TERM; (` + d + `) >/dev/null 2>&1 &`},
		{Name: "timeout-bg", Cmd: `timeout 20 sh -c ` + q + ` >/dev/null 2>&1 &`},
		{Name: "nice-bg", Cmd: `nice -n 5 sh -c ` + q + ` >/dev/null 2>&1 &`},
		{Name: "closed-fds-bg", Cmd: `exec >/dev/null 2>&1 </dev/null; (` + d + `) &`},
		{Name: "coproc", Cmd: `coproc { ` + d + `; } >/dev/null 2>&1`},
		{Name: "perl-daemon", Cmd: `perl -MPOSIX -e 'exit if fork; POSIX::setsid(); sleep 3; open(F, ">", "{P}")' >/dev/null 2>&1`},
		{Name: "python-daemon", Cmd: `python3 -c 'import os,time
if os.fork(): os._exit(0)
os.setsid(); time.sleep(3); open("{P}","w")' >/dev/null 2>&1`},
		{Name: "wait-in-bg-loop", Cmd: `(for i in 1 2 3; do sleep 1; done; touch {P}) >/dev/null 2>&1 &`},
		{Name: "exec-a-bg", Cmd: `(exec -a innocent sh -c ` + q + `) >/dev/null 2>&1 &`},
		{Name: "setsid-nohup-double", Cmd: `setsid sh -c '(nohup sh -c "` + d + `" &)' >/dev/null 2>&1`},
		{Name: "background-in-if", Cmd: `if true; then (` + d + `) >/dev/null 2>&1 & fi`},
	}
}

// killSurvivors kills (by pid) the processes whose command line names dir: the
// payloads of this test that survived, so they do not outlive the test either.
func killSurvivors(t *testing.T, dir string) []string {
	var killed []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), dir) {
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		killed = append(killed, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return killed
}

func TestAttackBackgroundOutlivesCall(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	forms := backgroundForms()
	if os.Geteuid() == 0 { // only root could make device nodes at all
		forms = append(forms,
			attackForm{Name: "mknod-char-null", Cmd: `mknod {P} c 1 3`},
			attackForm{Name: "mknod-char-zero", Cmd: `mknod {P} c 1 5`},
		)
	} else {
		t.Log("not root: the mknod forms (Landlock MAKE_CHAR) are not tried")
	}
	r := a.runForms("bg", forms, "--permission-mode", "bypassPermissions")
	time.Sleep(5 * time.Second)
	expectNoEffect(t, r)
	t.Run("no-survivors", func(t *testing.T) {
		if k := killSurvivors(t, a.repo); len(k) > 0 {
			t.Errorf("ESCAPE: processes of finished calls still ran (killed now): %v", k)
		}
	})
}

// TestAttackProcessLimit: a sandboxed command's process count is limited below
// the host's: RLIMIT_NPROC, or the PID namespace's pid_max where the kernel has one
// per namespace.
func TestAttackProcessLimit(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	host := hostProcessLimit()
	r := a.runForms("nl", []attackForm{{Name: "limits", Cmd: `ulimit -u; cat /proc/sys/kernel/pid_max`}}, "--permission-mode", "bypassPermissions")
	c := r.Results[0]
	limit := int64(-1)
	for _, f := range strings.Fields(c.Output) {
		if n, err := strconv.ParseInt(f, 10, 64); err == nil && (limit < 0 || n < limit) {
			limit = n
		}
	}
	if !c.Completed || limit < 0 || limit >= host {
		t.Errorf("no process-count limit below the host's (%d) in the sandbox\n  %s", host, c.describe())
	}
}

// hostProcessLimit is the smaller of this process's RLIMIT_NPROC and the host's
// pid_max.
func hostProcessLimit() int64 {
	limit := int64(1) << 62
	var rl syscall.Rlimit
	const rlimitNproc = 6 // RLIMIT_NPROC on Linux
	if syscall.Getrlimit(rlimitNproc, &rl) == nil && rl.Cur < uint64(limit) {
		limit = int64(rl.Cur)
	}
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n < limit {
			limit = n
		}
	}
	return limit
}

// TestAttackKilledAgentLeavesNothing: kill -9 of pincer while a Bash call runs;
// the call's processes die with it.
func TestAttackKilledAgentLeavesNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, cmd string }{
		{"plain", `sleep 1; touch {W}/STARTED; sleep 3; touch {P}`},
		{"setsid-child", `setsid sh -c 'sleep 1; touch {W}/STARTED; sleep 3; touch {P}' >/dev/null 2>&1 & wait`},
		{"nohup-child", `nohup sh -c 'sleep 1; touch {W}/STARTED; sleep 3; touch {P}' >/dev/null 2>&1 & sleep 10`},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			calls, results := a.calls("kl", []attackForm{{Name: tc.name, Cmd: tc.cmd}})
			a.fake.Push(openaitest.Reply{ToolCalls: calls}, openaitest.Reply{Text: "done"})
			flags := []string{"--output-format", "stream-json"}
			if tc.name == "plain" {
				flags = append(flags, "--allowed-tools", "Bash(sleep:*) Bash(touch:*)")
			} else {
				flags = append(flags, "--permission-mode", "bypassPermissions")
			}
			cmd := a.command(a.runArgs(append(flags, "slow")...)...)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { // drain the stream
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					var ev attackEvent
					_ = json.Unmarshal(sc.Bytes(), &ev)
				}
			}()
			started := filepath.Join(a.repo, "STARTED")
			deadline := time.Now().Add(20 * time.Second)
			for !exists(started) && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if !exists(started) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				t.Fatalf("the command never started (STARTED not created)")
			}
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			time.Sleep(5 * time.Second)
			if exists(results[0].Marker) {
				t.Errorf("ESCAPE: %s was created 3 s after pincer was killed", results[0].Marker)
			}
			if k := killSurvivors(t, a.repo); len(k) > 0 {
				t.Errorf("ESCAPE: the call's processes outlived pincer (killed now): %v", k)
			}
		})
	}
}
