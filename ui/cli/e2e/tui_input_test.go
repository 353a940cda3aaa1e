package e2e

// End-to-end tests of the input box's habits in tmux: an unbracketed paste
// (tmux's plain paste-buffer) is one message, `pincer "prompt"` sends it as
// the workbench opens, and the prompt history and the draft survive a
// reopen.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// lastUserText is the content of the last user message of a recorded
// request.
func lastUserText(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	return ""
}

// inputRunsScript writes a shell script that runs the workbench in e's
// repository once for each of runs (the arguments after the flags), saying
// "pincer exited N with CODE" after each, then waits.
func inputRunsScript(t *testing.T, e *env, runs ...string) string {
	t.Helper()
	var body strings.Builder
	fmt.Fprintf(&body, "#!/bin/sh\ncd '%s' || exit 1\n", e.repo)
	fmt.Fprintf(&body, "export PINCER_HOME='%s' PINCER_API_KEY=test-key PINCER_MODEL=fake/test-model LANG=C.UTF-8 LC_ALL=C.UTF-8\n", e.home)
	for i, args := range runs {
		fmt.Fprintf(&body, "'%s' --base-url '%s' --no-sandbox %s 2>>'%s'\necho \"pincer exited %d with $?\" | tee -a '%s'\n",
			pincerBin, e.fake.BaseURL(), args, filepath.Join(e.home, "stderr.txt"), i+1, filepath.Join(e.home, "exits.txt"))
	}
	body.WriteString("exec sleep 600\n")
	script := filepath.Join(t.TempDir(), "run.sh")
	if err := os.WriteFile(script, []byte(body.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestTUIUnbracketedPasteIsOneMessage (Found 10): 60 lines pasted with
// tmux's plain paste-buffer (no bracketed paste: every LF arrives as CR, an
// Enter), the last one ending in a newline, wait in the box as one paste
// (zero requests: the person reviews it first); Enter then sends them as one
// message with all 60 lines, not 60 turns.
func TestTUIUnbracketedPasteIsOneMessage(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t)
	tm := newTmux(t, 120, 40, inputRunsScript(t, e, ""))
	tm.waitText("1 Transcript", "· idle ·")
	var text strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&text, "pasted line %02d of sixty\n", i)
	}
	buf := filepath.Join(t.TempDir(), "paste.txt")
	if err := os.WriteFile(buf, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := tm.run("load-buffer", buf); err != nil {
		t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	if out, err := tm.run("paste-buffer", "-t", "main"); err != nil { // no -p: unbracketed
		t.Fatalf("paste-buffer: %v\n%s", err, out)
	}
	// The buffer's last newline is part of the paste: nothing is sent yet.
	tm.waitText("[Pasted 60 lines]")
	time.Sleep(500 * time.Millisecond) // room for a request, if one came
	if reqs := e.fake.Requests(); len(reqs) != 0 {
		t.Fatalf("the paste sent itself: %d requests before Enter:\n%s", len(reqs), tm.screen())
	}
	tm.keys("Enter")
	tm.waitText("pasted line 60 of sixty", "· done ·")
	time.Sleep(500 * time.Millisecond) // room for a second request, if any came
	reqs := e.fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the fake got %d requests, want 1:\n%s", len(reqs), tm.screen())
	}
	if got, want := strings.TrimSuffix(lastUserText(reqs[0]), "\n"), strings.TrimSuffix(text.String(), "\n"); got != want {
		t.Fatalf("the model got %q,\nwant %q", got, want)
	}
}

// TestTUIPromptArgHistoryAndDraft: `pincer "prompt"` sends the prompt as the
// workbench opens; after Ctrl+C twice with text in the box and a reopen, the
// text is back in the box (the draft) and Up recalls the prompt sent before.
func TestTUIPromptArgHistoryAndDraft(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not on PATH")
	}
	e := newEnv(t)
	tm := newTmux(t, 120, 40, inputRunsScript(t, e, `"say hello from argv"`, ""))
	tm.waitText("say hello from argv", "· done ·")
	if reqs := e.fake.Requests(); len(reqs) != 1 || lastUserText(reqs[0]) != "say hello from argv" {
		t.Fatalf("requests after pincer \"prompt\": %d (%q)", len(reqs), func() string {
			if len(reqs) == 0 {
				return ""
			}
			return lastUserText(reqs[0])
		}())
	}
	tm.typeText("a second prompt")
	tm.keys("Enter")
	tm.waitFor("the second answer", func(sc string) bool { return len(e.fake.Requests()) == 2 && strings.Contains(sc, "· done ·") })
	tm.typeText("an unsent draft")
	tm.waitText("an unsent draft")
	tm.keys("C-c")
	tm.keys("C-c")
	// The exit line is on the screen only until the second run draws: read
	// it from the script's own record.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(e.readHome("exits.txt"), "pincer exited 1 with 0") {
		if time.Now().After(deadline) {
			t.Fatalf("the first run did not exit 0 after Ctrl+C twice: %q\n%s", e.readHome("exits.txt"), tm.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The second run, on the same project.
	tm.waitFor("the workbench to reopen with the draft", func(sc string) bool {
		return strings.Contains(sc, "1 Transcript") && strings.Contains(sc, "an unsent draft")
	})
	tm.keys("C-a", "C-k") // empty the box (start of line, delete to its end)
	tm.waitFor("an empty box", func(sc string) bool { return !strings.Contains(sc, "an unsent draft") })
	tm.keys("Up")
	tm.waitText("a second prompt")
	tm.keys("Up")
	tm.waitText("say hello from argv")
	if n := len(e.fake.Requests()); n != 2 {
		t.Fatalf("%d requests: the reopen sent something", n)
	}
	tm.keys("C-c")
	tm.keys("C-c")
	tm.waitText("pincer exited 2 with 0")
}

// TestPrintFlagIsRun: `pincer -p PROMPT` is `pincer run PROMPT` (Claude
// Code's print flag), flags before or after it; a typo of a command is a
// usage error, not a prompt.
func TestPrintFlagIsRun(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "printed answer"})
	out, errOut, code := e.run("--base-url", e.fake.BaseURL(), "-p", "answer briefly", "--no-sandbox")
	if code != 0 || !strings.Contains(out, "printed answer") {
		t.Fatalf("pincer -p: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if reqs := e.fake.Requests(); len(reqs) != 1 || lastUserText(reqs[0]) != "answer briefly" {
		t.Fatalf("the model got %d requests", len(reqs))
	}
	_, errOut, code = e.run("sesions")
	if code != 2 || !strings.Contains(errOut, `did you mean "sessions"`) {
		t.Fatalf("pincer sesions: exit %d, stderr %q", code, errOut)
	}
}

// readHome returns the text of name under the env's PINCER_HOME ("" when
// it is not there yet).
func (e *env) readHome(name string) string {
	b, _ := os.ReadFile(filepath.Join(e.home, name))
	return string(b)
}
