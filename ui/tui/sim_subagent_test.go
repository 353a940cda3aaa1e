package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/provider/providertest"
)

// subagentBench shows a parent session on a width×height workbench whose
// log says its Agent call a1 runs an Explore subagent in a child session;
// the child's turn (scripted by prov) runs on the same agent and approval
// queue, as a derived agent does. It returns once the child's turn started.
func subagentBench(t *testing.T, width, height int, prov *providertest.Scripted) (b *simBench, ag *agent.Agent, parent, child, root string, turn chan error) {
	t.Helper()
	b = startBench(t, width, height, Options{})
	ag, root = newTestAgent(t, prov)
	ctx := t.Context()
	p, err := ag.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ag.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), p.ID)
	b.waitText(shortID(p.ID) + " · idle")
	emit := func(typ event.Type, payload any) {
		if _, err := ag.Log().Emit(ctx, typ, p.ID, "", payload); err != nil {
			t.Fatal(err)
		}
	}
	emit(event.ToolStarted, event.ToolStartedData{ToolCallID: "a1", Name: "Agent", Summary: "Agent: find the loader"})
	emit(event.SubagentStarted, event.SubagentStartedData{ToolCallID: "a1", ChildSessionID: c.ID, AgentType: "Explore",
		Description: "find the loader", Background: true})
	emit(event.ToolCompleted, event.ToolCompletedData{ToolCallID: "a1", Name: "Agent", Output: "started in the background: " + c.ID})
	turn = make(chan error, 1)
	go func() {
		_, err := ag.SubmitTurn(context.Background(), c.ID, "find the loader")
		turn <- err
	}()
	return b, ag, p.ID, c.ID, root, turn
}

// TestSubagentApprovalAnsweredFromTheQueue: a subagent's Bash call asks; the
// request is in the parent's queue labelled with the subagent, the Agent
// call's row shows the subagent asking, y (a keypress after the grace)
// answers it through the one queue and the child's command runs; its turn
// ends and the row says done.
func TestSubagentApprovalAnsweredFromTheQueue(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"touch marker-child"}`)),
		{Events: providertest.TextEvents("Found it.")},
	}}
	b, ag, parent, child, root, turn := subagentBench(t, 140, 40, prov)
	b.waitText("3 Approvals (1)", "[Explore] Bash: touch marker-child", "? ▸ [Explore] find the loader · asks: Bash: touch")
	b.afterReading("y")
	if err := <-turn; err != nil {
		t.Fatalf("child turn: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "marker-child")); err != nil {
		t.Fatalf("the approved child command did not run: %v", err)
	}
	b.waitText("3 Approvals (0")
	var resolved event.PermissionResolvedData
	for _, ev := range events(t, ag, child) {
		if ev.Type == event.PermissionResolved {
			p, _ := ev.Payload()
			resolved = p.(event.PermissionResolvedData)
		}
	}
	if resolved.Decision != "allow" || resolved.By != "user" {
		t.Errorf("the child's request was resolved %+v, want allowed by the user", resolved)
	}
	if _, err := ag.Log().Emit(t.Context(), event.SubagentCompleted, parent, "", event.SubagentCompletedData{
		ToolCallID: "a1", ChildSessionID: child, AgentType: "Explore", Outcome: "completed", Result: "Found it.", ModelCalls: 2}); err != nil {
		t.Fatal(err)
	}
	b.waitText("✓ ▸ [Explore] find the loader · done · 2 model calls",
		"background subagent [Explore] find the loader: done · 2 model calls") // the notice of a background run's end
}

// TestSubagentStepsExpand: Enter on the Agent call in the timeline shows the
// child's tool calls nested under it, live; Enter again hides them.
func TestSubagentStepsExpand(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("g1", "Glob", `{"pattern":"*.go"}`)),
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"touch x"}`)),
		{Events: providertest.TextEvents("done")},
	}}
	b, _, _, _, _, _ := subagentBench(t, 140, 40, prov)
	b.waitText("[Explore] Bash")
	b.key(tcell.KeyRune, '2', tcell.ModAlt)
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	s := b.waitText("▾ [Explore] find the loade", "✓   ↳ Glob *.go", "?   ↳ Bash: touch x")
	if strings.Index(s, "▾ [Explore]") > strings.Index(s, "↳ Glob") {
		t.Errorf("the steps are not under their Agent call:\n%s", s)
	}
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitFor("the steps to hide", func(s string) bool { return strings.Contains(s, "▸ [Explore]") && !strings.Contains(s, "↳ Glob") })
}
