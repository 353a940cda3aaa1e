package app

import (
	"context"
	"testing"

	"pincer/core/agent"
	"pincer/core/permission"
)

// BenchmarkSpawnSubagent is the cost of starting a subagent without the
// model: the catalog lookup, the tool-set and mode rules, DeriveAgent (the
// agent of the Run's composition) and the child session stored (Badger,
// in the process).
func BenchmarkSpawnSubagent(b *testing.B) {
	for _, typ := range []string{"Explore", "general-purpose"} {
		b.Run(typ, func(b *testing.B) {
			b.Setenv("PINCER_HOME", b.TempDir())
			b.Setenv("PINCER_NO_DAEMON", "1")
			b.Chdir(b.TempDir())
			s, err := Prepare(Options{Model: "local/m", BaseURL: "http://127.0.0.1:9/v1"})
			if err != nil {
				b.Fatal(err)
			}
			r, err := s.Start(context.Background(), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			sp := &spawner{run: func() *Run { return r }, ws: r.Workspace, registry: r.Tools}
			req := agent.SpawnRequest{ParentSessionID: r.SessionID, ToolCallID: "c1", AgentType: typ,
				Description: "bench", ParentMode: permission.ModeDefault, ParentModel: "m"}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := sp.Spawn(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
