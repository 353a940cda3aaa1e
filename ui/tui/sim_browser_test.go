package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/provider/providertest"
	"pincer/persist"
)

// seedSession stores a finished session as a past process would have left it:
// one turn that asked about an Edit, was allowed, made a diff and cost $0.05.
func seedSession(t *testing.T, ag *agent.Agent, id, cwd, prompt string, age time.Duration) {
	t.Helper()
	ctx := t.Context()
	at := time.Now().Add(-age).UTC()
	if err := ag.Store().PutSession(ctx, persist.Session{ID: id, Title: prompt, Cwd: cwd, Model: "fake/old",
		Status: "idle", CreatedAt: at, UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
	c := 0.05
	for _, e := range []struct {
		typ  event.Type
		turn string
		p    any
	}{
		{event.SessionCreated, "", event.SessionCreatedData{Cwd: cwd, Model: "fake/old"}},
		{event.TurnStarted, "t1", event.TurnStartedData{Input: prompt}},
		{event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Edit", Summary: "Edit parser.go", Reason: "edits ask"}},
		{event.PermissionResolved, "t1", event.PermissionResolvedData{RequestID: "r1", ToolCallID: "c1", Decision: "allow", Scope: "once", By: "user"}},
		{event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Edit", Summary: "Edit parser.go"}},
		{event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Edit", Output: "Edited parser.go", DurationMs: 4,
			Diff: "--- a/parser.go\n+++ b/parser.go\n@@ -1 +1 @@\n-old parser line\n+new parser line\n"}},
		{event.UsageReported, "t1", event.UsageData{InputTokens: 1200, OutputTokens: 300, CostUSD: &c}},
		{event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "Parser fixed."}},
		{event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "stop"}},
	} {
		if _, err := ag.Log().Emit(ctx, e.typ, id, e.turn, e.p); err != nil {
			t.Fatal(err)
		}
	}
}

// browserBench is a workbench attached to a fresh live session, with two
// past sessions: "fix the parser" in this directory, "other project"
// elsewhere.
func browserBench(t *testing.T) (*simBench, *agent.Agent, string, string) {
	b, ag, live, root := attached(t, 160, 50, &providertest.Scripted{})
	seedSession(t, ag, "20250101-000000-parser01", root, "fix the parser\nplease", time.Hour)
	seedSession(t, ag, "20250101-000000-other001", "/elsewhere/project", "other project", 2*time.Hour)
	return b, ag, live, root
}

func TestSessionsBrowserListsAndFilters(t *testing.T) {
	b, _, live, _ := browserBench(t)
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	s := b.waitText("Sessions (3)", "fix the parser please", "/elsewhere/project", "other project", "1.5k", "$0.0500", "fake/old")
	live0, _ := rowOf(s, "▶")
	parser, _ := rowOf(s, "fix the parser")
	other, _ := rowOf(s, "other project")
	if !(live0 < parser && parser < other) {
		t.Errorf("not newest first (live %d, parser %d, other %d):\n%s", live0, parser, other, s)
	}
	if y, _ := rowOf(s, "Enter open read-only"); y < 0 {
		t.Errorf("no key hints from the key map:\n%s", s)
	}
	_ = live
	b.typeText("parser")
	s = b.waitText("Sessions (1 of 3)", "Filter: parser")
	if strings.Contains(s, "other project") {
		t.Errorf("the filter let another session through:\n%s", s)
	}
	for range "parser" {
		b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	}
	b.waitText("Sessions (3)", "other project")
	b.typeText("nomatch")
	b.waitText("no session matches the filter")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // leaves the filter: the browser stays
	b.waitText("Sessions (0 of 3)", "Filter: nomatch")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // clears the filter's text: the browser stays
	b.waitText("Sessions (3)", "Filter: (type to filter)")
	b.typeText("x")
	b.waitText("Sessions (1 of 3)", "Filter: x")
	b.key(tcell.KeyCtrlU, 0, tcell.ModCtrl) // clears the filter, in the filter
	b.waitText("Sessions (3)", "Filter: ▏")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // leaves the (empty) filter
	b.waitText("Filter: (type to filter)")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // closes
	s = b.waitText("2 Timeline", "3 Approvals (0)")
	if strings.Contains(s, "Sessions (") {
		t.Errorf("Esc left the browser open:\n%s", s)
	}
	// /sessions opens it too.
	b.send("/sessions")
	b.waitText("Sessions (3)")
}

func TestSessionsBrowserOpensReadOnly(t *testing.T) {
	b, _, live, _ := browserBench(t)
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	b.waitText("Sessions (3)", "1.5k")
	b.typeText("parser")
	b.waitText("Sessions (1 of 3)")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	s := b.waitText("read-only parser01 (Esc returns)", "Parser fixed.", "2 Timeline (1)", "Edit parser.go",
		"3 Approvals history (1)", "allowed once (user)", "-old parser line", "+new parser line")
	if strings.Contains(s, "Sessions (") {
		t.Errorf("the browser stayed open:\n%s", s)
	}
	// Its approvals history drives the diff pane too.
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.waitText("4 Diff: b/parser.go +1 −1 · Edit parser.go", "+new parser line")
	b.typeText("y") // nothing to answer in a read-only session
	b.waitText("nothing waits for this answer")
	// Read-only: a prompt is refused and kept.
	b.send("hello")
	b.waitText("open read-only")
	if b.w.SessionID() != live {
		t.Errorf("live session changed to %s", b.w.SessionID())
	}
	b.onLoop(func() { b.w.input.SetText("", false) })
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	s = b.waitText(shortID(live)+" · idle", "3 Approvals (0)", "2 Timeline (0)")
	if strings.Contains(s, "read-only") {
		t.Errorf("Esc did not come back:\n%s", s)
	}
}

func TestSessionsBrowserResumeAndDelete(t *testing.T) {
	b, ag, live, _ := browserBench(t)
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	b.waitText("Sessions (3)", "1.5k")
	b.typeText("dr") // in the filter, letters filter: nothing matches, nothing is deleted or resumed
	b.waitText("Sessions (0 of 3)", "Filter: dr")
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.key(tcell.KeyBackspace2, 0, tcell.ModNone)
	b.waitText("Sessions (3)")
	b.key(tcell.KeyEnd, 0, tcell.ModNone) // the oldest: another directory
	b.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	b.waitText("it ran in /elsewhere/project: resume it there")
	b.key(tcell.KeyEscape, 0, tcell.ModNone) // the command mode: single keys
	b.typeText("k")                          // fix the parser: this directory
	b.typeText("r")
	b.waitText("parser01 · done", "Parser fixed.", "3 Approvals (0)")
	if got := b.w.SessionID(); got != "20250101-000000-parser01" {
		t.Fatalf("live session after r = %s", got)
	}
	// The first live session, in which no prompt was sent, is not listed any
	// more; the one in use cannot be deleted; the other one can.
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	s := b.waitText("Sessions (2)", "1.5k", "other project")
	if strings.Contains(s, "(no prompt)") {
		t.Errorf("a session without a prompt is listed:\n%s", s)
	}
	b.key(tcell.KeyHome, 0, tcell.ModNone) // the parser session, in use now
	b.key(tcell.KeyCtrlD, 0, tcell.ModCtrl)
	b.waitText("this is the session in use")
	b.key(tcell.KeyEnd, 0, tcell.ModNone)
	b.key(tcell.KeyCtrlD, 0, tcell.ModCtrl)
	b.waitText("and everything stored with it? y deletes")
	b.typeText("x") // anything but y keeps it
	b.waitText("kept it")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.typeText("d")
	b.waitText("y deletes")
	b.typeText("y")
	const other = "20250101-000000-other001"
	b.waitText("deleted session "+other, "Sessions (1)")
	if _, err := ag.Store().GetSession(t.Context(), other); !errors.Is(err, persist.ErrNotFound) {
		t.Errorf("GetSession after delete: %v", err)
	}
	if evs := events(t, ag, other); len(evs) != 0 {
		t.Errorf("%d events left", len(evs))
	}
	_ = live
}
