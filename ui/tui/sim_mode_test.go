package tui

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

// TestModeCycling: Shift+Tab in the input box and Ctrl+T anywhere step
// default → acceptEdits → plan → auto → default, on the agent and in the
// status line at once; bypassPermissions is not in the cycle (as Claude
// Code's, without --allow-dangerously-skip-permissions).
func TestModeCycling(t *testing.T) {
	b, ag, _, _ := attached(t, 160, 50, &providertest.Scripted{})
	s := b.waitText("fake/m · default ·")
	if !strings.Contains(s, "Shift+Tab next permission mode") {
		t.Errorf("the input's help bar lacks the mode key:\n%s", s)
	}
	step := modeStepper(t, b, ag)
	shiftTab := func() { b.key(tcell.KeyBacktab, 0, tcell.ModNone) }
	ctrlT := func() { b.key(tcell.KeyCtrlT, 0, tcell.ModCtrl) }
	step(permission.ModeAcceptEdits, shiftTab)
	b.key(tcell.KeyRune, '2', tcell.ModAlt) // a pane: Ctrl+T still cycles
	step(permission.ModePlan, ctrlT)
	step(permission.ModeAuto, ctrlT)
	b.key(tcell.KeyRune, '0', tcell.ModAlt)
	step(permission.ModeDefault, shiftTab)
	if f := b.focus(); f != paneInput {
		t.Errorf("cycling the mode moved the focus to %d", f)
	}
	// In a pane, Shift+Tab still moves the focus back.
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	shiftTab()
	b.waitFor("focus back to the timeline", func(string) bool { return b.focus() == paneTimeline })
	if ag.Mode() != permission.ModeDefault {
		t.Errorf("Shift+Tab in a pane changed the mode to %s", ag.Mode())
	}
	// The help screen lists both keys, from the key-map table.
	b.key(tcell.KeyF1, 0, tcell.ModNone)
	b.waitText("Help — Esc")
	b.helpShows("Ctrl+T", "Shift+Tab", "next permission mode", "Ctrl+O", "sessions browser")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
}

// helpShows scrolls the open help screen down a row at a time (arrow keys:
// runes 10 ms apart read as a paste) until each of texts has been on the
// screen at some position; it fails the test naming those never seen.
func (b *simBench) helpShows(texts ...string) {
	b.t.Helper()
	missing := map[string]bool{}
	for _, x := range texts {
		missing[x] = true
	}
	last := ""
	for i := 0; i < 400 && len(missing) > 0; i++ {
		s := b.text()
		for x := range missing {
			if strings.Contains(s, x) {
				delete(missing, x)
			}
		}
		if s == last && i > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		last = s
		b.key(tcell.KeyDown, 0, tcell.ModNone)
		time.Sleep(2 * time.Millisecond)
	}
	if len(missing) > 0 {
		b.t.Fatalf("the help screen never showed %v; screen:\n%s", slices.Sorted(maps.Keys(missing)), b.text())
	}
}

// modeStepper returns a step: press, then wait for mode want in the status
// line and check the agent's.
func modeStepper(t *testing.T, b *simBench, ag interface{ Mode() permission.Mode }) func(permission.Mode, func()) {
	return func(want permission.Mode, press func()) {
		t.Helper()
		press()
		b.waitText("fake/m · " + string(want) + " ·")
		if got := ag.Mode(); got != want {
			t.Errorf("agent mode %s, want %s", got, want)
		}
	}
}

// TestModeBypassOnlyWhenAllowed: without Options.AllowBypass, /mode
// bypassPermissions is refused naming the flag, and the mode stays; with it,
// the cycle goes through bypassPermissions and /mode accepts it.
func TestModeBypassOnlyWhenAllowed(t *testing.T) {
	b, ag, _, _ := attached(t, 160, 50, &providertest.Scripted{})
	b.send("/mode bypassPermissions")
	b.waitText("--allow-dangerously-skip-permissions")
	if ag.Mode() != permission.ModeDefault {
		t.Fatalf("agent mode %s after a refused /mode bypassPermissions", ag.Mode())
	}

	b2, ag2, _, _ := attachedWith(t, 160, 50, &providertest.Scripted{}, Options{AllowBypass: true})
	step := modeStepper(t, b2, ag2)
	shiftTab := func() { b2.key(tcell.KeyBacktab, 0, tcell.ModNone) }
	for _, m := range []permission.Mode{permission.ModeAcceptEdits, permission.ModePlan, permission.ModeAuto, permission.ModeBypass, permission.ModeDefault} {
		step(m, shiftTab)
	}
	b2.send("/mode bypassPermissions")
	b2.waitText("fake/m · bypassPermissions ·")
}

// TestModeCommand: /mode MODE sets any mode ParseMode accepts; a bad one is
// refused and stays in the box; /mode alone shows the mode.
func TestModeCommand(t *testing.T) {
	b, ag, _, _ := attached(t, 160, 50, &providertest.Scripted{})
	b.send("/mode plan")
	b.waitText("fake/m · plan ·")
	if ag.Mode() != permission.ModePlan {
		t.Errorf("agent mode %s", ag.Mode())
	}
	b.send("/mode dontAsk")
	b.waitText("fake/m · dontAsk ·")
	b.key(tcell.KeyBacktab, 0, tcell.ModNone) // from outside the cycle: default
	b.waitText("fake/m · default ·")
	b.send("/mode sideways")
	b.waitText("unknown permission mode")
	var text string
	b.onLoop(func() { text = b.w.input.GetText() })
	if text != "/mode sideways" || ag.Mode() != permission.ModeDefault {
		t.Errorf("a bad mode: box %q, agent %s", text, ag.Mode())
	}
	b.onLoop(func() { b.w.input.SetText("", false) })
	b.send("/mode")
	b.waitText("permission mode: default — edits and commands ask first")
}

// TestModeBeforeAttachAndInEffect: a mode chosen while the store opens goes
// to the agent on Attach; acceptEdits then lets an edit run without asking.
func TestModeBeforeAttachAndInEffect(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	b.waitText("opening store…")
	b.key(tcell.KeyBacktab, 0, tcell.ModNone)
	b.waitText("fake/m · acceptEdits · opening store…")
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Write", `{"file_path":"n.txt","content":"new\n"}`)),
		{Events: providertest.TextEvents("written")},
	}}
	ag, root := newTestAgent(t, prov)
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	if ag.Mode() != permission.ModeAcceptEdits {
		t.Fatalf("agent mode %s after Attach", ag.Mode())
	}
	b.send("write it")
	b.waitModel("the turn", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.waitText("written", "3 Approvals (0)")
	if got, err := os.ReadFile(filepath.Join(root, "n.txt")); err != nil || string(got) != "new\n" {
		t.Errorf("n.txt = %q, %v", got, err)
	}
	b.model(func(m *Model) {
		if len(m.History) != 0 {
			t.Errorf("acceptEdits still asked: %+v", m.History)
		}
	})
}

// TestModeChangeIsInTheLog: Shift+Tab records mode.changed on the live
// session, and a workbench that replays the session later shows it.
func TestModeChangeIsInTheLog(t *testing.T) {
	b, ag, sid, _ := attached(t, 160, 50, &providertest.Scripted{})
	b.key(tcell.KeyBacktab, 0, tcell.ModNone)
	b.waitText("fake/m · acceptEdits ·", "permission mode: acceptEdits")
	var got []event.ModeChangedData
	for _, ev := range events(t, ag, sid) {
		if ev.Type == event.ModeChanged {
			var d event.ModeChangedData
			if err := ev.Decode(&d); err != nil {
				t.Fatal(err)
			}
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0] != (event.ModeChangedData{Mode: "acceptEdits", Previous: "default"}) {
		t.Fatalf("mode.changed events = %+v", got)
	}
	b.stop() // one workbench at a time: New sets tview's global styles (themes.ApplyToTview)
	late := startBench(t, 160, 50, Options{})
	late.w.Attach(backendOf(ag), sid)
	late.waitModel("the replay", func(m *Model) bool { return m.Status.Mode == "acceptEdits" })
}
