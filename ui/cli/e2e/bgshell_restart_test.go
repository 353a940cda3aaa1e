package e2e

// Background shells across processes (new user r23 #1, #2): a shell a run
// left running ends with it, and `pincer run` says so (a stderr line in text
// mode, shell.exited in stream-json, endedShells in json); a later
// `--continue` whose model asks BashOutput or KillShell about that shell is
// told it belonged to the earlier run and ended with it, not that it never
// existed.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestEarlierRunsShellAfterContinue: bash_1 runs when the first run ends;
// the second run (--continue) reads it and kills it, and both results say
// the shell belonged to the earlier run and was ended when it ended.
func TestEarlierRunsShellAfterContinue(t *testing.T) {
	e := newEnv(t)
	marker := fmt.Sprintf("bg-restart-%d", time.Now().UnixNano())
	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: jsonArgs(t, map[string]any{
			"command": "echo started; sleep 300; echo " + marker, "run_in_background": true})}}},
		openaitest.Reply{Text: "Left it running."},
	)
	out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "start something")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	want := "pincer: background shell bash_1 (echo started; sleep 300; echo " + marker + ") was still running when the run ended: ended it"
	if !strings.Contains(stderr, want+"\n") {
		t.Errorf("stderr does not say the run ended bash_1:\nwant %q\ngot  %q", want, stderr)
	}
	if left := waitGone(marker); len(left) > 0 {
		t.Errorf("processes outlived pincer:\n%s", strings.Join(left, "\n"))
	}

	e.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o1", Name: "BashOutput", Args: `{"bash_id":"bash_1"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "k1", Name: "KillShell", Args: `{"shell_id":"bash_1"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "o9", Name: "BashOutput", Args: `{"bash_id":"bash_9"}`}}},
		openaitest.Reply{Text: "It is gone."},
	)
	out, stderr, code = e.run(e.runArgs("--continue", "--permission-mode", "bypassPermissions", "--output-format", "stream-json", "how is it doing?")...)
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	evs := streamLines(t, out)
	got := toolOutputs(evs)
	isErr := map[string]bool{}
	for _, ev := range evs {
		if ev["type"] == "tool.completed" {
			id, _ := ev["toolCallId"].(string)
			isErr[id], _ = ev["isError"].(bool)
		}
	}
	for _, id := range []string{"o1", "k1"} {
		if strings.Contains(got[id], "no background shell") || isErr[id] {
			t.Errorf("%s: the earlier run's shell is called unknown (isError %v): %q", id, isErr[id], got[id])
		}
		if !strings.Contains(got[id], "bash_1 belonged to an earlier pincer run of this session") ||
			!strings.Contains(got[id], "was ended when that run ended") {
			t.Errorf("%s does not say the shell belonged to the earlier run and ended with it: %q", id, got[id])
		}
	}
	if !strings.Contains(got["o1"], "<status>killed</status>") {
		t.Errorf("BashOutput's status of the ended shell: %q", got["o1"])
	}
	if !strings.Contains(got["o9"], "no background shell with that ID") {
		t.Errorf("a shell that never existed: %q", got["o9"])
	}
	if strings.Contains(stderr, "background shell") {
		t.Errorf("the second run ended no shell, but stderr says: %q", stderr)
	}
}

// TestRunReportsEndedShells: the shells still running when `pincer run`
// ends are reported as ended, in each output format; one that had exited
// by itself is not.
func TestRunReportsEndedShells(t *testing.T) {
	for _, format := range []string{"json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			e := newEnv(t)
			marker := fmt.Sprintf("bg-ended-%d", time.Now().UnixNano())
			e.fake.Push(
				openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Bash", Args: `{"command":"echo quick","run_in_background":true}`}}},
				openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "w1", Name: "Bash", Args: `{"command":"sleep 1"}`}}},
				openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s2", Name: "Bash", Args: jsonArgs(t, map[string]any{
					"command": "sleep 300 # " + marker, "run_in_background": true})}}},
				openaitest.Reply{Text: "Left one running."},
			)
			out, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", format, "start two")...)
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, stderr, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			var res struct {
				EndedShells []struct {
					ShellID, Command, Reason string
				} `json:"endedShells"`
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
				t.Fatalf("last line is not the result: %v\n%s", err, out)
			}
			if len(res.EndedShells) != 1 || res.EndedShells[0].ShellID != "bash_2" || res.EndedShells[0].Command != "sleep 300 # "+marker || res.EndedShells[0].Reason != "session_ended" {
				t.Errorf("endedShells: %+v\n%s", res.EndedShells, lines[len(lines)-1])
			}
			if !strings.Contains(stderr, "pincer: background shell bash_2 (sleep 300 # "+marker+") was still running when the run ended: ended it\n") || strings.Contains(stderr, "bash_1") {
				t.Errorf("stderr: %q", stderr)
			}
			if format == "stream-json" {
				evs := streamLines(t, out)
				shells := shellEvents(evs[:len(evs)-1])
				if len(shells) != 4 || !strings.Contains(shells[3], `"shellId":"bash_2"`) || !strings.Contains(shells[3], `"reason":"session_ended"`) {
					t.Errorf("the stream before the result lacks bash_2's end: %v", shells)
				}
			}
			if left := waitGone(marker); len(left) > 0 {
				t.Errorf("processes outlived pincer:\n%s", strings.Join(left, "\n"))
			}
		})
	}
}
