package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// benchSpawner builds each subagent over the parent's store, log,
// workspace, tools, approval queue and subagent registry (as
// app.Run.DeriveAgent does), with the child's scripted provider.
type benchSpawner struct {
	parent func() *agent.Agent
	queue  *app.ApprovalQueue
	child  provider.Provider
	ws     *sandbox.Workspace
}

func (s *benchSpawner) Spawn(ctx context.Context, req agent.SpawnRequest) (*agent.Spawned, error) {
	p := s.parent()
	ag, err := agent.New(agent.Config{Store: p.Store(), Log: p.Log(), Provider: s.child, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: s.ws, SystemPrompt: "You are a subagent.", PermissionMode: req.ParentMode,
		Approver: s.queue, MaxIterations: agent.DefaultSubagentIterations, DeltaInterval: time.Millisecond,
		Subagents: p.Subagents(), OwnerCommand: "pincer subagent"})
	if err != nil {
		return nil, err
	}
	sess, err := ag.CreateLinkedSession(ctx, persist.Session{ParentID: req.ParentSessionID,
		ParentToolCallID: req.ToolCallID, AgentType: req.AgentType})
	if err != nil {
		return nil, err
	}
	return &agent.Spawned{Agent: ag, Session: sess}, nil
}

func (s *benchSpawner) Listing() string        { return "- Explore: searches" }
func (s *benchSpawner) ReadOnly(t string) bool { return t == "Explore" }

// spawningBench is a workbench attached to an agent that offers the Agent
// tool (parent scripted by parent, every child by child).
func spawningBench(t *testing.T, parent, child *providertest.Scripted) (*simBench, *agent.Agent, string) {
	t.Helper()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store, queue := memory.New(), app.NewApprovalQueue()
	var ag *agent.Agent
	sp := &benchSpawner{parent: func() *agent.Agent { return ag }, queue: queue, child: child, ws: ws}
	ag, err = agent.New(agent.Config{Store: store, Provider: parent, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "You are a test.", PermissionMode: permission.ModeDefault,
		Approver: queue, DeltaInterval: time.Millisecond, Spawner: sp})
	if err != nil {
		t.Fatal(err)
	}
	b := startBench(t, 160, 40, Options{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(&app.Backend{Agent: ag, Store: store, Approvals: queue}, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, ag, ws.Root()
}

// TestSubagentAsksParentGetsChildText: the parent's Agent call runs an
// Explore subagent whose Bash call asks; the request is in the queue
// labelled [Explore], y answers it (the child's command runs), and the
// parent's next model call gets only the child's final text.
func TestSubagentAsksParentGetsChildText(t *testing.T) {
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("a1", "Agent", `{"description":"find the loader","prompt":"find it","subagent_type":"Explore"}`)),
		{Events: providertest.TextEvents("The subagent found it.")},
	}}
	child := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"touch child-ran"}`)),
		{Events: providertest.TextEvents("CHILD-FINAL: loader in config.go")},
	}}
	b, _, root := spawningBench(t, parent, child)
	b.send("explore")
	b.waitText("[Explore] Bash: touch child-ran", "▸ [Explore] find the loader")
	b.afterReading("y")
	b.waitModel("the parent's turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	if _, err := os.Stat(filepath.Join(root, "child-ran")); err != nil {
		t.Fatalf("the approved child command did not run: %v", err)
	}
	reqs := parent.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the parent made %d model calls, want 2", len(reqs))
	}
	var result string
	for _, m := range reqs[1].Messages {
		if r, ok := m.ToolResult(); ok && r.ToolCallID == "a1" {
			result = r.Text
		}
	}
	if !strings.Contains(result, "CHILD-FINAL: loader in config.go") || strings.Contains(result, "touch child-ran") {
		t.Errorf("the parent's Agent result = %q, want the child's final text only", result)
	}
	b.waitText("✓ ▸ [Explore] find the loader · done")
}

// TestSubagentCancelFromTimeline: a background subagent waits on its
// request; x on its Agent call in the timeline cancels it: the request
// leaves the queue and the row says cancelled.
func TestSubagentCancelFromTimeline(t *testing.T) {
	parent := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("a1", "Agent", `{"description":"long search","prompt":"search","subagent_type":"Explore","run_in_background":true}`)),
		{Events: providertest.TextEvents("Started it.")},
	}}
	child := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("b1", "Bash", `{"command":"touch never"}`)),
		{Events: providertest.TextEvents("never")},
	}}
	b, _, root := spawningBench(t, parent, child)
	b.send("go")
	b.waitText("[Explore] Bash: touch never")
	b.waitModel("the parent's turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.key(tcell.KeyRune, '2', tcell.ModAlt)
	b.typeText("x")
	b.waitText("[Explore] long search · cancelled", "3 Approvals (0")
	if _, err := os.Stat(filepath.Join(root, "never")); err == nil {
		t.Fatal("the cancelled subagent's command ran")
	}
}
