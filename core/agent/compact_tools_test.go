package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestCompactionRequestCarriesTools: the summary request of a history with tool
// calls declares the tools (Anthropic rejects tool_use blocks without them); one of
// a history without tool calls declares none.
func TestCompactionRequestCarriesTools(t *testing.T) {
	for _, tc := range []struct {
		name      string
		withCalls bool
	}{{"history with tool calls", true}, {"history without tool calls", false}} {
		t.Run(tc.name, func(t *testing.T) {
			reader := &fakeTool{name: "R", kind: tools.KindRead, run: func(context.Context, []byte) (tools.Result, error) {
				return tools.Result{Output: "content"}, nil
			}}
			prov := newCompacting(func(n int, req provider.Request) []provider.Event {
				if n == 1 && tc.withCalls {
					return []provider.Event{providertest.ToolCall("c1", "R", `{"x":"1"}`), {Type: provider.EventDone, FinishReason: "tool_calls"}}
				}
				return providertest.TextEvents("ok")
			})
			h := newHarnessWith(t, nil, memory.New(), Config{}, reader)
			h.ag.cfg.Provider = prov
			for _, q := range []string{"read it", "and then?", "and now?"} {
				h.submit(context.Background(), q)
			}
			if res := h.submit(context.Background(), "/compact"); res.Outcome != OutcomeCompleted || prov.summaries != 1 {
				t.Fatalf("outcome %s, %d summaries (%v)", res.Outcome, prov.summaries, res.Err)
			}
			reqs := prov.Requests()
			sum := reqs[len(reqs)-1]
			if last := sum.Messages[len(sum.Messages)-1].Text(); !strings.HasPrefix(last, "Summarise the conversation") {
				t.Fatalf("last request is no summary request: %q", last)
			}
			var names []string
			for _, sp := range sum.Tools {
				names = append(names, sp.Name)
			}
			if has := len(names) > 0; has != tc.withCalls {
				t.Fatalf("summary request tools %v, want tools: %v", names, tc.withCalls)
			}
			if tc.withCalls && !strings.Contains(strings.Join(names, ","), "R") {
				t.Errorf("summary request tools %v lack R", names)
			}
		})
	}
}
