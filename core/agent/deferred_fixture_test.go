package agent

import (
	"context"
	"encoding/json"
	"os"
	"sync/atomic"
	"testing"

	"pincer/tools"
)

// mcpFixtureTool is a tool shaped as an MCP server's (the name
// mcp__SERVER__TOOL, DeferAuto, an Origin), with a real server's definition
// from testdata; a call records that it ran and echoes its input.
type mcpFixtureTool struct {
	spec tools.Spec
	runs *atomic.Int32
}

func (f mcpFixtureTool) Spec() tools.Spec { return f.spec }
func (f mcpFixtureTool) Run(_ context.Context, _ *tools.Env, input json.RawMessage) (tools.Result, error) {
	f.runs.Add(1)
	return tools.Result{Output: f.spec.Name + " ran with " + string(input)}, nil
}

// everythingTools are the 13 tools of @modelcontextprotocol/server-everything
// (testdata/mcp-everything-tools.json, its tools/list result) as server
// "everything"'s, and the counter of their runs.
func everythingTools(t testing.TB) ([]tools.Tool, *atomic.Int32) {
	t.Helper()
	raw, err := os.ReadFile("testdata/mcp-everything-tools.json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	runs := &atomic.Int32{}
	var out []tools.Tool
	for _, tl := range list.Tools {
		out = append(out, mcpFixtureTool{runs: runs, spec: tools.Spec{
			Name: "mcp__everything__" + tl.Name, Description: tl.Description, Schema: tl.InputSchema,
			Kind: tools.KindExecute, Defer: tools.DeferAuto, Origin: "mcp:everything",
		}})
	}
	if len(out) != 13 {
		t.Fatalf("fixture has %d tools", len(out))
	}
	return out, runs
}
