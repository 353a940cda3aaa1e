package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/provider/providertest"
)

// After /clear the previous session's background shell runs on (the
// process's, as in Claude Code): the notice says so, /bashes lists it as
// SESSION:ID with where it is, /bashes SESSION:ID opens its output and
// /bashes kill SESSION:ID ends it (new user r23 #3: nothing said it still
// ran, and /bashes no longer showed it).
func TestClearKeepsShellsInBashes(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"echo tui-clear-out; sleep 60 # tui-clear","run_in_background":true}`)),
		providertest.Text("started it"),
	}}
	b, ag, s := shellStarted(t, prov, 200, "start a server")
	b.typeText("/clear")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("1 background shell of the previous session still running (see /bashes)")
	b.typeText("/bashes")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	qid := shortID(s.ID) + ":bash_1"
	b.waitText("none in this session", "Still running in other sessions of this workbench",
		qid, "sleep 60 # tui-clear", "no tab shows its session (left by /clear or /resume)")
	b.typeText("/bashes " + qid)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Background shell "+qid+" · running", "tui-clear-out")
	b.typeText("/bashes kill " + qid)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("background shell " + qid + " killed")
	if sh := ag.Shells(s.ID); len(sh) != 1 || sh[0].Running || sh[0].Reason != "killed" {
		t.Errorf("the earlier session's shell after /bashes kill: %+v", sh)
	}
	b.typeText("/bashes")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("none in this session")
	if screen := b.text(); strings.Contains(screen, "Still running in other sessions") {
		t.Errorf("a killed shell is still listed:\n%s", screen)
	}
}

// TestOtherShellLines: another session's shells are named SESSION:ID with
// where the session is shown, their commands on one clean line; SESSION:ID
// resolves by the short or the full session ID.
func TestOtherShellLines(t *testing.T) {
	if got := otherShellLines(nil, func(string) int { return 0 }); got != nil {
		t.Errorf("no other shells: %q", got)
	}
	shells := []app.LiveShell{
		{SessionID: "20261203-1-aaaa1111", ShellID: "bash_1", Command: "make \x1b]0;pwned\x07watch\nx"},
		{SessionID: "20261203-2-bbbb2222", ShellID: "bash_1", Command: "npm run dev"},
	}
	got := strings.Join(otherShellLines(shells, func(id string) int {
		if id == "20261203-2-bbbb2222" {
			return 2
		}
		return 0
	}), "\n")
	for _, want := range []string{"aaaa1111:bash_1", "make watch x", "(no tab shows its session (left by /clear or /resume))", "bbbb2222:bash_1", "npm run dev   (tab 2)"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("an escape reached the screen: %q", got)
	}
	for arg, want := range map[string]string{"bbbb2222:bash_1": "npm run dev", "20261203-1-aaaa1111:bash_1": shells[0].Command, "cccc:bash_1": "", "bash_1": "", "aaaa1111:": ""} {
		s, ok := findOtherShell(shells, arg)
		if ok != (want != "") || s.Command != want {
			t.Errorf("findOtherShell(%q) = %+v, %v", arg, s, ok)
		}
	}
}

// /resume of another session says, as /clear does, that the session left
// has background shells still running.
func TestResumeSaysShellsRunOn(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"sleep 60 # tui-resume","run_in_background":true}`)),
		providertest.Text("started it"),
	}}
	b, ag, _ := shellStarted(t, prov, 200, "start a server")
	other, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.typeText("/resume " + other.ID)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("resumed session " + other.ID + "; 1 background shell of the previous session still running (see /bashes)")
}
