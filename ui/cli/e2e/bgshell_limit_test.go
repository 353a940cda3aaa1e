package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
	"pincer/tools"
)

// TestAttackBackgroundShellProcesses is the red team's F4 through the real
// binary and engine: a background shell forking 1,000 sleeping processes
// (bypassPermissions) gets at most its share of the Run's budget
// (tools.ShellQuota: 512), not the 4096 of a foreground command.
func TestAttackBackgroundShellProcesses(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	e := newEnv(t)
	fork := `python3 -c '
import os, time
n = 0
for i in range(1000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(60)
        os._exit(0)
    n += 1
print("forked", n, flush=True)
time.sleep(60)
'`
	wait := `python3 -c 'import time; time.sleep(3)'`
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": fork, "run_in_background": true})}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "w1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": wait})}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o1", Name: "BashOutput", Args: `{"bash_id":"bash_1"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "k1", Name: "KillShell", Args: `{"shell_id":"bash_1"}`}}},
		openaitest.Reply{Text: "done"},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "fork")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	outs := toolOutputs(streamLines(t, out))
	if strings.Contains(outs["s1"], "cannot bound") {
		t.Skipf("refused here, as it must be where no bound holds: %s", outs["s1"])
	}
	m := regexp.MustCompile(`forked ([0-9]+)`).FindStringSubmatch(outs["o1"])
	if m == nil {
		t.Fatalf("no count in BashOutput: %q (start: %q)", outs["o1"], outs["s1"])
	}
	n, _ := strconv.Atoi(m[1])
	if per := tools.NewShellQuota(0, 0).PerShell(); n >= per {
		t.Errorf("a background shell forked %d processes, its share is %d", n, per)
	}
	if n < 100 {
		t.Errorf("only %d forks: %s", n, fmt.Sprint(outs))
	}
}
