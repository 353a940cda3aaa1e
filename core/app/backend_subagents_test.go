package app

import (
	"context"
	"errors"
	"testing"

	"pincer/core/agent"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// blockSpawner builds children whose model never answers.
type blockSpawner struct{ parent func() *agent.Agent }

func (s blockSpawner) Listing() string      { return "" }
func (s blockSpawner) ReadOnly(string) bool { return false }
func (s blockSpawner) Spawn(ctx context.Context, req agent.SpawnRequest) (*agent.Spawned, error) {
	p := s.parent()
	ag, err := agent.New(agent.Config{Store: p.Store(), Log: p.Log(), Tools: tools.NewRegistry(), Workspace: mustWS(),
		Provider: &providertest.Scripted{Loop: &providertest.Step{Block: true}}, Subagents: p.Subagents()})
	if err != nil {
		return nil, err
	}
	sess, err := ag.CreateSession(ctx)
	return &agent.Spawned{Agent: ag, Session: sess}, err
}

func mustWS() *sandbox.Workspace {
	ws, err := sandbox.NewWorkspace(".")
	if err != nil {
		panic(err)
	}
	return ws
}

// The workbench lists a session's running subagents and cancels one.
func TestBackendCancelSubagent(t *testing.T) {
	t.Chdir(t.TempDir())
	var parent *agent.Agent
	parent, err := agent.New(agent.Config{Store: memory.New(), Tools: tools.NewRegistry(), Workspace: mustWS(),
		Provider: &providertest.Scripted{}, Spawner: blockSpawner{func() *agent.Agent { return parent }}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess, _ := parent.CreateSession(ctx)
	info, err := parent.StartBackground(ctx, agent.SpawnRequest{ParentSessionID: sess.ID, AgentType: "general-purpose"}, "wait")
	if err != nil {
		t.Fatal(err)
	}
	b := &Backend{Agent: parent}
	if ids := b.RunningSubagents(sess.ID); len(ids) != 1 || ids[0] != info.SessionID {
		t.Fatalf("running %v", ids)
	}
	if err := b.CancelSubagent(info.SessionID); err != nil {
		t.Fatalf("cancel refused: %v", err)
	}
	res, err := parent.Subagents().Wait(ctx, info.SessionID)
	if err != nil || res.Outcome != agent.OutcomeCancelled {
		t.Fatalf("after cancel: %+v %v", res, err)
	}
	if err := b.CancelSubagent(info.SessionID); !errors.Is(err, agent.ErrNoSuchChild) || len(b.RunningSubagents(sess.ID)) != 0 {
		t.Fatal("an ended subagent is still running")
	}
}
