package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pincer/core/prompt"
	"pincer/sandbox"
	"pincer/tools"
)

type originTool struct{ name, origin string }

func (o originTool) Spec() tools.Spec { return tools.Spec{Name: o.name, Origin: o.origin} }
func (o originTool) Run(context.Context, *tools.Env, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, nil
}

// The static prompt segment names built-in tools only: an MCP server's tools
// arriving later never change the part a provider caches.
func TestStaticPromptIgnoresMCPTools(t *testing.T) {
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	before, _, _ := prompt.Split(buildSystemPrompt(ws, reg, "fake/m"))
	reg.Add(originTool{name: "mcp__everything__echo", origin: "mcp:everything"})
	after, _, _ := prompt.Split(buildSystemPrompt(ws, reg, "fake/m"))
	if before != after {
		t.Errorf("an MCP tool changed the static prompt")
	}
	if names := builtinToolNames(reg); strings.Contains(strings.Join(names, " "), "mcp__") {
		t.Errorf("builtinToolNames: %v", names)
	}
}

func TestMCPTimeout(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{{"", DefaultMCPTimeout}, {"2500", 2500 * time.Millisecond}, {"0", DefaultMCPTimeout}, {"-5", DefaultMCPTimeout}, {"10s", DefaultMCPTimeout}} {
		if got := mcpTimeout(c.in); got != c.want {
			t.Errorf("mcpTimeout(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}
