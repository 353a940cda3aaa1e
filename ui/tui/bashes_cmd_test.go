package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

// TestShellReducer: shell.* events make the session's list of background
// shells, and an end is a notice in the transcript.
func TestShellReducer(t *testing.T) {
	m := NewModel()
	seq := uint64(0)
	apply := func(typ event.Type, p any) {
		seq++
		ev, err := event.New(typ, "s", "", p)
		if err != nil {
			t.Fatal(err)
		}
		ev.Sequence = seq
		m.Apply(ev)
	}
	apply(event.ShellStarted, event.ShellStartedData{ShellID: "bash_1", ToolCallID: "c1", Command: "npm run dev"})
	apply(event.ShellStarted, event.ShellStartedData{ShellID: "bash_2", ToolCallID: "c2", Command: "go test ./..."})
	if m.RunningShells() != 2 {
		t.Fatalf("running %d, want 2", m.RunningShells())
	}
	apply(event.ShellExited, event.ShellExitedData{ShellID: "bash_2", ExitCode: 1, Reason: "exited"})
	apply(event.ShellExited, event.ShellExitedData{ShellID: "bash_1", ExitCode: 143, Reason: "killed"})
	want := []ShellEntry{
		{ID: "bash_1", Command: "npm run dev", ToolCallID: "c1", Reason: "killed", ExitCode: 143},
		{ID: "bash_2", Command: "go test ./...", ToolCallID: "c2", Reason: "exited", ExitCode: 1},
	}
	if len(m.Shells) != 2 || m.Shells[0] != want[0] || m.Shells[1] != want[1] || m.RunningShells() != 0 {
		t.Errorf("shells %+v", m.Shells)
	}
	var notes []string
	for _, b := range m.Blocks {
		notes = append(notes, b.Text)
	}
	if got := strings.Join(notes, "|"); got != "background shell bash_2 exited (code 1)|background shell bash_1 killed" {
		t.Errorf("notices %q", got)
	}
}

func TestShellLines(t *testing.T) {
	got := strings.Join(shellLines([]ShellEntry{
		{ID: "bash_1", Command: "make \x1b]0;pwned\x07build", Reason: "exited"},
		{ID: "bash_2", Command: "python3 -m http.server", Running: true},
		{ID: "bash_3", Command: "sleep 9", Reason: "session_ended"},
	}), "\n")
	i2, i1 := strings.Index(got, "bash_2   running"), strings.Index(got, "bash_1   exited (code 0)")
	if i2 < 0 || i1 < 0 || i2 > i1 || !strings.Contains(got, "bash_3   ended with the session") {
		t.Errorf("running first, then the ended ones:\n%s", got)
	}
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("an escape reached the screen: %q", got)
	}
	if none := strings.Join(shellLines(nil), "\n"); !strings.Contains(none, "none in this session") {
		t.Errorf("no shells: %q", none)
	}
}

// /bashes lists the session's background shells, the status line counts
// the running ones, /bashes kill ID ends one.
func TestSlashBashesListsAndKills(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"sleep 60 # tui-bashes","run_in_background":true}`)),
		providertest.Text("started it"),
	}}
	b, ag, s := shellStarted(t, prov, 160, "start a server")
	b.typeText("/bashes")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Background shells — Bash run_in_background", "bash_1   running", "sleep 60 # tui-bashes")
	// A slash command typed over the list closes it and goes to the box
	// (new user r21 finding 15: the keys went nowhere).
	b.typeText("/bashes kill bash_9")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("no running background shell bash_9")
	b.waitFor("the list to close", func(screen string) bool { return !strings.Contains(screen, "Background shells —") })
	b.typeText("/bashes kill bash_1")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("background shell bash_1 killed")
	// On the notices line too, where the answer to a command is looked for
	// (new user r24 #2: it kept the previous notice).
	b.waitFor("the notice of the kill", func(string) bool { return b.lineNoticeText() == "background shell bash_1 killed" })
	b.waitFor("the count to go", func(screen string) bool { return !strings.Contains(screen, "1 shell") })
	if sh := ag.Shells(s.ID); len(sh) != 1 || sh[0].Running || sh[0].Reason != "killed" {
		t.Errorf("the agent's shells after /bashes kill: %+v", sh)
	}
}

// Closing a tab ends its session's background shells (nobody views the
// session any more); the other tab's session is left alone.
func TestClosingATabEndsItsShells(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"sleep 60 # tui-tab-close","run_in_background":true}`)),
		providertest.Text("started it"),
	}}
	b, ag, s := shellStarted(t, prov, 160, "start a server")
	b.alt('t')
	b.waitText("tab 2: new session")
	b.alt('p')
	b.waitText("started it")
	b.alt('w')
	b.waitFor("the tab to close", func(screen string) bool { return !strings.Contains(screen, "started it") })
	deadline := time.Now().Add(10 * time.Second)
	for {
		var reasons []string
		for _, ev := range events(t, ag, s.ID) {
			if ev.Type == event.ShellExited {
				p, _ := ev.Payload()
				reasons = append(reasons, p.(event.ShellExitedData).Reason)
			}
		}
		if len(reasons) > 0 {
			if len(reasons) != 1 || reasons[0] != "session_ended" {
				t.Errorf("the closed tab's shell ended as %v", reasons)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed tab's shell still runs: no shell.exited")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// shellStarted attaches a workbench width×40 to a new session of an agent
// in bypassPermissions over prov, sends prompt and waits for prov's first
// step (a background Bash call) to have started its shell and the reply
// "started it"; the agent's shells end with the test.
func shellStarted(t *testing.T, prov *providertest.Scripted, width int, prompt string) (*simBench, *agent.Agent, app.SessionRecord) {
	t.Helper()
	ag, _ := newTestAgent(t, prov)
	t.Cleanup(ag.CloseShells)
	ag.SetPermissionMode(permission.ModeBypass)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b := startBench(t, width, 40, Options{})
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.typeText(prompt)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("started it", "1 shell")
	return b, ag, s
}
