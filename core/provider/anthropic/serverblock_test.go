package anthropic

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

// assistantOf folds a stream into the assistant message the agent would store:
// text and server blocks in stream order.
func assistantOf(t *testing.T, r streamtest.Result) message.Message {
	t.Helper()
	m := message.Message{Role: message.RoleAssistant}
	for _, ev := range r.Events {
		switch ev.Type {
		case provider.EventTextDelta:
			if n := len(m.Parts); n > 0 && m.Parts[n-1].Type == message.PartText {
				m.Parts[n-1].Text += ev.Text
				continue
			}
			m.Parts = append(m.Parts, message.Part{Type: message.PartText, Text: ev.Text})
		case provider.EventServerBlock:
			m.Parts = append(m.Parts, ev.Block)
		}
	}
	return m
}

// TestWebSearchServerTool: the request declares web_search_20250305 with the
// cap and domains given; the stream's server_tool_use and web_search_tool_result
// become server blocks in order (citations do not break decoding); usage counts
// the search; the next request carries the blocks back unchanged, also after a
// JSON round trip of the message (the store's encoding).
func TestWebSearchServerTool(t *testing.T) {
	fx := streamcase.Fixture(t, "messages-web-search.txt")
	s := streamtest.NewScript(t, streamtest.Stream(string(fx.Payload)), streamtest.Stream(okStream))
	p := testProvider(s.URL)
	ws := &provider.WebSearch{MaxUses: 3, AllowedDomains: []string{"go.dev"}}
	msgs := []message.Message{message.NewText(message.RoleUser, "What is new in Go?")}

	r := streamtest.Collect(p.Stream(context.Background(), provider.Request{Model: "claude-test", Messages: msgs, WebSearch: ws}))
	if r.Err != nil || r.Finish != "end_turn" || r.Text != "Let me search.Go 1.26 is out." {
		t.Fatalf("err %v finish %q text %q", r.Err, r.Finish, r.Text)
	}
	if r.Usage.WebSearchRequests != 1 || r.Usage.InputTokens != 2100 || r.Usage.OutputTokens != 90 {
		t.Fatalf("usage %+v", r.Usage)
	}
	am := assistantOf(t, r)
	if len(am.Parts) != 4 {
		t.Fatalf("parts %+v", am.Parts)
	}
	use, res := am.Parts[1], am.Parts[2]
	if use.Type != message.PartServerBlock || use.ToolName != "server_tool_use" || use.ToolCallID != "srvtoolu_01" ||
		use.Input != `{"query": "go 1.26 release"}` || use.Text != "web_search" {
		t.Fatalf("server_tool_use part %+v", use)
	}
	wantText := "Go 1.26 Release Notes <https://go.dev/doc/go1.26>\nGo blog <https://go.dev/blog/>"
	if res.ToolName != "web_search_tool_result" || res.ToolCallID != "srvtoolu_01" || res.Text != wantText || res.IsError {
		t.Fatalf("result part %+v", res)
	}

	// The store keeps messages as JSON: the round trip must keep the blocks.
	raw, err := json.Marshal(am)
	if err != nil {
		t.Fatal(err)
	}
	var stored message.Message
	if err := json.Unmarshal(raw, &stored); err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, stored, message.NewText(message.RoleUser, "thanks"))
	if r2 := streamtest.Collect(p.Stream(context.Background(), provider.Request{Model: "claude-test", Messages: msgs})); r2.Err != nil {
		t.Fatal(r2.Err)
	}
	reqs := s.Requests()
	wantTools := streamtest.JSON(t, `[{"type":"web_search_20250305","name":"web_search","max_uses":3,"allowed_domains":["go.dev"]}]`)
	if got := reqs[0].Body["tools"]; !reflect.DeepEqual(got, wantTools) {
		t.Fatalf("first request tools: %v", got)
	}
	if got, ok := reqs[1].Body["tools"]; ok {
		t.Fatalf("no WebSearch, yet tools %v", got)
	}
	wantAssistant := streamtest.JSON(t, `{"role":"assistant","content":[
		{"type":"text","text":"Let me search."},
		{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{"query":"go 1.26 release"}},
		{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[
			{"type":"web_search_result","title":"Go 1.26 Release Notes","url":"https://go.dev/doc/go1.26","encrypted_content":"EqgfCioIARgBIiQ3","page_age":"February 11, 2026"},
			{"type":"web_search_result","title":"Go blog","url":"https://go.dev/blog/","encrypted_content":"EpUBCioIARgB","page_age":null}]},
		{"type":"text","text":"Go 1.26 is out."}]}`)
	if got := reqs[1].Body["messages"].([]any)[1]; !reflect.DeepEqual(got, wantAssistant) {
		out, _ := json.MarshalIndent(got, "", "  ")
		t.Fatalf("second request's assistant message:\n%s", out)
	}
}

// TestWebSearchDeclaration is the declaration for each setting: none without a
// search left, blocked domains when no allowed ones.
func TestWebSearchDeclaration(t *testing.T) {
	for _, tc := range []struct {
		name string
		ws   *provider.WebSearch
		want string // "" no tool
	}{
		{"nil", nil, ""},
		{"no searches left", &provider.WebSearch{MaxUses: 0}, ""},
		{"cap only", &provider.WebSearch{MaxUses: 8}, `{"type":"web_search_20250305","name":"web_search","max_uses":8}`},
		{"blocked", &provider.WebSearch{MaxUses: 1, BlockedDomains: []string{"a.example"}},
			`{"type":"web_search_20250305","name":"web_search","max_uses":1,"blocked_domains":["a.example"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := webSearchTool(tc.ws)
			if tc.want == "" {
				if got != nil {
					t.Fatalf("declared %+v", got)
				}
				return
			}
			raw, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(streamtest.JSON(t, string(raw)), streamtest.JSON(t, tc.want)) {
				t.Fatalf("got %s", raw)
			}
		})
	}
}

// TestSearchResultError: an error result is kept and flagged.
func TestSearchResultError(t *testing.T) {
	p := searchResultPart(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_9","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`, "srvtoolu_9")
	if !p.IsError || p.Text != "web search failed: max_uses_exceeded" || p.ToolCallID != "srvtoolu_9" {
		t.Fatalf("%+v", p)
	}
}
