package gemini

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
	"pincer/core/provider/internal/streamcase"
	"pincer/core/provider/internal/streamtest"
)

func TestValidAndFixedNames(t *testing.T) {
	long := strings.Repeat("a", 70)
	for _, tc := range []struct {
		name  string
		valid bool
		fixed string
	}{
		{"Read", true, "Read"},
		{"mcp__github__create_issue", true, "mcp__github__create_issue"},
		{"_private", true, "_private"},
		{"ns.tool:v1-x", true, "ns.tool:v1-x"},
		{"2fa_code", false, "_2fa_code"},
		{"9", false, "_9"},
		{"-dash", false, "_-dash"},
		{"run tests", false, "run_tests"},
		{"tool/with/slash", false, "tool_with_slash"},
		{"ünïcode", false, "__n__code"},
		{long, false, long[:64]},
	} {
		if got := validName(tc.name); got != tc.valid {
			t.Errorf("validName(%q) = %v", tc.name, got)
		}
		if !tc.valid {
			if got := fixName(tc.name); got != tc.fixed || !validName(got) {
				t.Errorf("fixName(%q) = %q (valid %v), want %q", tc.name, got, validName(got), tc.fixed)
			}
		}
	}
}

func TestToolNamesCollisions(t *testing.T) {
	tools := []provider.ToolSpec{{Name: "2fa"}, {Name: "_2fa"}, {Name: "3 fa"}, {Name: "3_fa"}, {Name: "Read"}}
	tn := newToolNames(tools, []message.Message{{Role: message.RoleAssistant, Parts: []message.Part{
		{Type: message.PartToolCall, ToolCallID: "c", ToolName: "4x"}}}})
	want := map[string]string{"2fa": "_2fa_2", "_2fa": "_2fa", "3 fa": "_3_fa", "3_fa": "_3_fa_2", "Read": "Read", "4x": "_4x"}
	seen := map[string]string{}
	for real, w := range want {
		if got := tn.toWire(real); got != w {
			t.Errorf("toWire(%q) = %q, want %q", real, got, w)
		}
		if back := tn.toReal(w); back != real {
			t.Errorf("toReal(%q) = %q, want %q", w, back, real)
		}
		if other, dup := seen[w]; dup {
			t.Errorf("%q and %q share the wire name %q", real, other, w)
		}
		seen[w] = real
	}
	if got := tn.toReal("Unknown"); got != "Unknown" {
		t.Errorf("an unknown name maps to %q", got)
	}
}

// TestDigitToolNameRoundTrip: a tool whose name starts with a digit is declared, and
// its calls of the history sent, under its wire name; the call Gemini makes under
// that name comes back under the real one.
func TestDigitToolNameRoundTrip(t *testing.T) {
	c := streamcase.Open(t, "testdata/gemini-digit-tool-name.txt")
	s := streamtest.NewScript(t, streamtest.Stream(string(c.Payload)))
	schema := json.RawMessage(`{"type":"object","properties":{"user":{"type":"string"}}}`)
	req := provider.Request{Model: "gemini-2.5-flash", Tools: []provider.ToolSpec{{Name: "2fa_code", Schema: schema}, {Name: "Read", Schema: schema}},
		Messages: []message.Message{
			message.NewText(message.RoleUser, "codes"),
			{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartToolCall, ToolCallID: "c1", ToolName: "2fa_code", Input: `{"user":"bob"}`}}},
			message.NewToolResult("c1", "2fa_code", "123456", false),
		}}
	got := streamtest.Collect(testProvider(s.URL).Stream(t.Context(), req))
	if got.Err != nil {
		t.Fatal(got.Err)
	}
	streamtest.CheckCalls(t, got.Calls, []streamtest.Call{{ID: "gemini-call-pincerResp03-0", Name: "2fa_code", Args: `{"user":"ann"}`}})
	body, _ := json.Marshal(s.Requests()[0].Body)
	for _, want := range []string{`"functionCall":{"args":{"user":"bob"},"id":"c1","name":"_2fa_code"}`,
		`"functionResponse":{"id":"c1","name":"_2fa_code"`, `{"name":"_2fa_code","parameters"`, `{"name":"Read","parameters"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("request lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(string(body), `"name":"2fa_code"`) {
		t.Errorf("the invalid name was sent:\n%s", body)
	}
}
