package app

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/core/skill"
)

// TestPromptArgs: a prompt's arguments from the words after its name.
func TestPromptArgs(t *testing.T) {
	two := mcp.PromptInfo{Name: "review", Arguments: []mcp.PromptArgument{{Name: "pr", Required: true}, {Name: "focus"}}}
	none := mcp.PromptInfo{Name: "hello"}
	cases := []struct {
		p          mcp.PromptInfo
		args, want string
		err        string
	}{
		{two, "456", "focus= pr=456", ""},
		{two, "456 security", "focus=security pr=456", ""},
		{two, "456 security and speed", "focus=security and speed pr=456", ""},
		{two, `"a b" 'c d'`, "focus=c d pr=a b", ""},
		{two, "  456   ", "focus= pr=456", ""},
		{two, "", "", "needs pr (usage: <pr> [focus])"},
		{two, `"open`, "", "unclosed"},
		{none, "", "", ""},
		{none, "x", "", "takes no arguments"},
	}
	for _, c := range cases {
		got, err := promptArgs(c.p, c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %q: %v, want error %q", c.p.Name, c.args, err, c.err)
			}
			continue
		}
		s := ""
		if got != nil {
			s = "focus=" + got["focus"] + " pr=" + got["pr"]
		}
		if err != nil || s != c.want {
			t.Errorf("%s %q: %q %v, want %q", c.p.Name, c.args, s, err, c.want)
		}
	}
	if h := promptHint(two); h != "<pr> [focus]" {
		t.Errorf("hint %q", h)
	}
}

// TestMCPPromptsAsCommands: a ready server's prompt is a catalog entry
// /mcp__SERVER__PROMPT (origin mcp:SERVER) and expands, with its arguments,
// to the prompt's text from the server.
func TestMCPPromptsAsCommands(t *testing.T) {
	g := mcptest.NewGoServer(t, false)
	g.Server.AddPrompt(&sdk.Prompt{Name: "review", Description: "Review a pull request",
		Arguments: []*sdk.PromptArgument{{Name: "pr", Required: true}, {Name: "focus"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			a := req.Params.Arguments
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user",
				Content: &sdk.TextContent{Text: "Review PR " + a["pr"] + " for " + a["focus"] + "."}}}}, nil
		})
	m := mcp.NewManager(mcp.Options{})
	defer m.Close()
	m.Start(t.Context(), []mcp.ServerConfig{{Name: "gh", Transport: mcp.TransportHTTP, URL: g.URL, Scope: mcp.ScopeUser, Approved: true}})
	m.WaitReady(t.Context(), 15*time.Second)
	cat := skill.NewCatalog()
	cat.AddSource(mcpPrompts{m})
	var found *skill.Entry
	for _, e := range cat.Entries() {
		if e.Name == "mcp__gh__review" {
			found = &e
		}
	}
	if found == nil || found.Description != "Review a pull request" || found.ArgumentHint != "<pr> [focus]" ||
		found.Origin != "mcp:gh" || found.Kind != skill.KindMCPPrompt {
		t.Fatalf("entries %+v", cat.Entries())
	}
	src, ok := cat.Source("mcp__gh__review")
	if !ok {
		t.Fatal("no source for the prompt")
	}
	text, err := src.Expand(t.Context(), "mcp__gh__review", "456 security")
	if err != nil || text != "Review PR 456 for security." {
		t.Fatalf("expand: %q %v", text, err)
	}
	if _, err := src.Expand(t.Context(), "mcp__gh__review", ""); err == nil || !strings.Contains(err.Error(), "needs pr") {
		t.Fatalf("missing argument: %v", err)
	}
	if _, err := src.Expand(t.Context(), "mcp__gh__nope", ""); err == nil {
		t.Fatal("an unknown prompt expanded")
	}
}
