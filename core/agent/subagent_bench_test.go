package agent

import (
	"context"
	"testing"
	"time"

	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// BenchmarkAgentCallInstantModel is one parent turn (a new session each
// time) making one Agent call whose child answers at once (scripted models,
// memory store): what a subagent costs the loop around the model — the spawn
// (the child's agent and session), the child's turn (lease, its system and
// user messages, its events), subagent.started and subagent.completed, the
// parent's tool result — against BenchmarkAgentCallInstantModel/no-agent, the
// same turn calling a trivial tool instead.
func BenchmarkAgentCallInstantModel(b *testing.B) {
	for _, call := range []string{"agent", "no-agent"} {
		b.Run(call, func(b *testing.B) {
			ws, err := sandbox.NewWorkspace(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			kid := &providertest.Scripted{Loop: &providertest.Step{Events: providertest.TextEvents("found it")}}
			parent := &providertest.Scripted{Respond: func(i int, req provider.Request) providertest.Step {
				if i%2 == 0 {
					return providertest.Text("ok")
				}
				if call == "agent" {
					return providertest.ToolCalls(providertest.ToolCall("c", "Agent", agentArgs("find", "Find it.", "Explore", "")))
				}
				return providertest.ToolCalls(providertest.ToolCall("c", "Look", `{"x":"y"}`))
			}}
			var ag *Agent
			sp := &testSpawner{provs: map[string]*providertest.Scripted{"find": kid}, parent: func() *Agent { return ag }}
			look := &fakeTool{name: "Look", kind: tools.KindRead, safe: true}
			ag, err = New(Config{Store: memory.New(), Provider: parent, Model: "m", ModelName: "fake/m",
				Tools: tools.NewRegistry(look), Workspace: ws, SystemPrompt: "You are a test.",
				PermissionMode: permission.ModeDefault, DeltaInterval: time.Millisecond, Spawner: sp})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				sess, err := ag.CreateSession(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if res, err := ag.SubmitTurn(ctx, sess.ID, "go"); err != nil || res.Outcome != OutcomeCompleted {
					b.Fatalf("%v %v", res.Outcome, err)
				}
			}
		})
	}
}
