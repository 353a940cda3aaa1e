package main

import (
	"strings"
	"testing"
)

func TestResolveModel(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		model, base string
		getenv      func(string) string
		api, key    string
		errHas      string
	}{
		{"openai/gpt-4.1", "", env("OPENAI_API_KEY", "o"), "chat", "o", ""},
		{"anthropic/claude-sonnet-4-5", "", env("ANTHROPIC_API_KEY", "a", "OPENAI_API_KEY", "o"), "anthropic", "a", ""},
		{"anthropic/claude-sonnet-4-5", "", env("OPENAI_API_KEY", "o"), "", "", "ANTHROPIC_API_KEY"},
		{"gemini/gemini-2.5-pro", "", env("GOOGLE_API_KEY", "g"), "gemini", "g", ""},
		{"openai-responses/gpt-5", "", env("PINCER_API_KEY", "p", "OPENAI_API_KEY", "o"), "responses", "p", ""},
		{"ollama/qwen", "", env(), "chat", "", ""},
		{"vllm/qwen", "http://127.0.0.1:8000/v1", env(), "chat", "", ""},
		{"vllm/qwen", "", env(), "", "", "unknown provider"},
		{"noslash", "", env(), "", "", "PROVIDER/MODEL"},
		{"x/y", "ftp://host", env(), "", "", "--base-url"},
	}
	for _, c := range cases {
		mc, err := resolveModel(c.model, c.base, c.getenv)
		if c.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Errorf("%s: err %v, want one containing %q", c.model, err, c.errHas)
			}
			continue
		}
		if err != nil || mc.API != c.api || mc.APIKey != c.key {
			t.Errorf("%s: %+v %v", c.model, mc, err)
		}
	}
}
