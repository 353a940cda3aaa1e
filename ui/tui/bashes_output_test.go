package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/event"
	"pincer/core/provider/providertest"
)

// TestShellOutputLines: the heading names the shell, its state and command;
// the output is shown as written with escapes removed; the empty and
// dropped cases say so.
func TestShellOutputLines(t *testing.T) {
	s := ShellEntry{ID: "bash_1", Command: "python3 -m http.server", Running: true}
	got := strings.Join(shellOutputLines(s, bashOutputView{id: "bash_1", text: "Serving\x1b]0;pwn\x07 HTTP\n\tGET / 200\n", dropped: 12}), "\n")
	for _, want := range []string{"Background shell bash_1 · running · python3 -m http.server", "… 12 earlier bytes no longer kept", "Serving HTTP", "    GET / 200"} {
		if !strings.Contains(got, want) {
			t.Errorf("lines lack %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07\t") {
		t.Errorf("an escape or tab reached the screen: %q", got)
	}
	if e := strings.Join(shellOutputLines(s, bashOutputView{id: "bash_1"}), "\n"); !strings.Contains(e, "no output yet") || !strings.Contains(e, "python3 -u") {
		t.Errorf("empty: %s", e)
	}
}

// TestSlashBashesShowsOutput (NU8): /bashes ID opens the shell's output
// through the Backend, and reading it there does not consume it: the
// model's BashOutput afterwards still gets every line.
func TestSlashBashesShowsOutput(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"echo first-line-out; echo second-line-out; sleep 60","run_in_background":true}`)),
		providertest.Text("started it"),
		providertest.ToolCalls(providertest.ToolCall("o1", "BashOutput", `{"bash_id":"bash_1"}`)),
		providertest.Text("read it"),
	}}
	b, ag, s := shellStarted(t, prov, 160, "start it")
	b.typeText("/bashes bash_7")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("no background shell bash_7")
	deadline := time.Now().Add(10 * time.Second) // the shell's echo may not have run yet
	for p, _ := ag.PeekShell(s.ID, "bash_1"); !strings.Contains(p.Output, "second-line-out"); p, _ = ag.PeekShell(s.ID, "bash_1") {
		if time.Now().After(deadline) {
			t.Fatalf("the shell wrote %q", p.Output)
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.typeText("/bashes bash_1")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Background shell bash_1 · running")
	b.waitText("first-line-out", "second-line-out")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	// The model's BashOutput after the person's look: everything is still there.
	b.typeText("read the output")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("read it")
	b.stop()
	var out string
	for _, ev := range events(t, ag, s.ID) {
		if p, err := ev.Payload(); err == nil {
			if d, ok := p.(event.ToolCompletedData); ok && d.Name == "BashOutput" {
				out = d.Output
			}
		}
	}
	if !strings.Contains(out, "first-line-out") || !strings.Contains(out, "second-line-out") {
		t.Errorf("the model's BashOutput after /bashes bash_1: %q", out)
	}
}
