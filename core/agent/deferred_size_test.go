package agent

import (
	"context"
	"encoding/json"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/openai/openaitest"
	"pincer/persist/memory"
	"pincer/tools"
)

// TestDeferredRequestSize measures what deferring saves on a session with
// @modelcontextprotocol/server-everything's 13 tools next to the built-ins:
// the bytes of the first Chat Completions request body (system prompt,
// the user's message, the tool definitions) with every tool offered (tool
// search never, or auto with a 200k window) and with them deferred (always),
// and of the request after one of them is loaded. Numbers go to
// docs/BENCHMARKS.md ("Issue 13"); run with -v to see them.
func TestDeferredRequestSize(t *testing.T) {
	first := func(policy tools.SearchPolicy, script ...openaitest.Reply) []map[string]any {
		srv := openaitest.New(script...)
		defer srv.Close()
		h, _ := deferredHarness(t, memory.New(), Config{PermissionMode: permission.ModeBypass, SystemPrompt: systemPrompt,
			ToolSearch: policy, ContextWindow: 200_000}, srv)
		h.submit(context.Background(), "echo hi")
		return srv.Requests()
	}
	size := func(req map[string]any) (body, toolDefs int) {
		b, _ := json.Marshal(req)
		d, _ := json.Marshal(req["tools"])
		return len(b), len(d)
	}
	allBody, allTools := size(first(tools.SearchPolicy{Mode: tools.SearchNever})[0])
	autoBody, _ := size(first(tools.SearchPolicy{})[0])
	reqs := first(tools.SearchPolicy{Mode: tools.SearchAlways},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "ToolSearch", Args: `{"query":"select:mcp__everything__echo"}`}}},
		openaitest.Reply{Text: "ok"})
	defBody, defTools := size(reqs[0])
	loadedBody, loadedTools := size(reqs[1])
	t.Logf("first request, every tool offered (never): %d bytes, tool definitions %d bytes", allBody, allTools)
	t.Logf("first request, auto at a 200k window (1,528 estimated tokens < 10%%: nothing deferred): %d bytes", autoBody)
	t.Logf("first request, deferred (always): %d bytes, tool definitions %d bytes (ToolSearch + built-ins), announcement in the system prompt", defBody, defTools)
	t.Logf("saving on the first request: %d bytes (%.0f%% of the body, %.0f%% of the tool definitions)",
		allBody-defBody, 100*float64(allBody-defBody)/float64(allBody), 100*float64(allTools-defTools)/float64(allTools))
	t.Logf("after select:mcp__everything__echo: %d bytes, tool definitions %d bytes (the ToolSearch call and result in the transcript)", loadedBody, loadedTools)
	if autoBody != allBody {
		t.Errorf("auto at 200k deferred something: %d bytes vs %d", autoBody, allBody)
	}
	if defBody >= allBody || defTools >= allTools {
		t.Errorf("deferring saved nothing: %d vs %d bytes", defBody, allBody)
	}
}
