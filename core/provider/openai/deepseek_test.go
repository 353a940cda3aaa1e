package openai

import (
	"testing"

	"pincer/core/message"
	"pincer/core/provider"
)

func TestDeepseekThinking(t *testing.T) {
	for _, tc := range []struct {
		model string
		want  bool
	}{
		{"deepseek-reasoner", true},
		{"DeepSeek-Reasoner", true},
		{"deepseek/deepseek-r1", true},
		{"deepseek/deepseek-r1-0528:free", true},
		{"deepseek-r1:8b", true},
		{"deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", true},
		{"deepseek/deepseek-v3.2", true},
		{"deepseek-v3.1-think", true},
		{"deepseek-chat", false},
		{"deepseek/deepseek-chat-v3-0324", false},
		{"deepseek-coder", false},
		{"gpt-4o", false},
		{"o1", false},
		{"reasoner-x", false},
		{"deepseek-reasoner/gpt-4o", false}, // the last segment decides
		{"", false},
	} {
		if got := deepseekThinking(tc.model); got != tc.want {
			t.Errorf("deepseekThinking(%q) = %v, want %v", tc.model, got, tc.want)
		}
	}
}

// toolLoop is a transcript whose current turn has two assistant tool-call messages,
// the first with captured reasoning, the second with none.
func toolLoop(model string) provider.Request {
	call := func(id, reasoning string) message.Message {
		m := message.Message{Role: message.RoleAssistant}
		if reasoning != "" {
			m.Parts = append(m.Parts, message.Part{Type: message.PartReasoning, Text: reasoning})
		}
		m.Parts = append(m.Parts, message.Part{Type: message.PartToolCall, ToolCallID: id, ToolName: "Read", Input: `{"file_path":"a"}`})
		return m
	}
	return provider.Request{Model: model, Messages: []message.Message{
		message.NewText(message.RoleUser, "read a twice"),
		call("c1", "first read"), message.NewToolResult("c1", "Read", "a", false),
		call("c2", ""), message.NewToolResult("c2", "Read", "a", false),
	}}
}

// TestReasoningContentByModelName: a DeepSeek thinking model gets its reasoning
// back whatever the provider is called (OpenRouter, a custom base URL), and an
// assistant message of the loop with no captured reasoning sends "" rather than no
// field (DeepSeek 400s on a tool-call turn without it).
func TestReasoningContentByModelName(t *testing.T) {
	for _, tc := range []struct {
		name, provider, model string
		want                  bool
	}{
		{"openrouter r1", "openrouter", "deepseek/deepseek-r1", true},
		{"custom base url reasoner", "myproxy", "deepseek-reasoner", true},
		{"deepseek provider, chat model", "deepseek", "deepseek-chat", true}, // the provider profile (registry)
		{"openrouter chat model", "openrouter", "deepseek/deepseek-chat", false},
		{"other model", "openai", "gpt-4o", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := captureRequest(t, toolLoop(tc.model), func(c *Config) {
				c.Name = tc.provider
				c.SendReasoning = tc.provider == "deepseek"
			})
			msgs := got.Body["messages"].([]any)
			first, second := msgs[1].(map[string]any), msgs[3].(map[string]any)
			r1, ok1 := first["reasoning_content"]
			r2, ok2 := second["reasoning_content"]
			if !tc.want {
				if ok1 || ok2 {
					t.Fatalf("reasoning_content sent: %v / %v", r1, r2)
				}
				return
			}
			if r1 != "first read" || !ok2 || r2 != "" {
				t.Fatalf("reasoning_content = %#v (sent %v) / %#v (sent %v), want \"first read\" / \"\"", r1, ok1, r2, ok2)
			}
		})
	}
}
