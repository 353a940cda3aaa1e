package openai

import "strings"

// deepseekThinking reports whether model names one of DeepSeek's thinking models,
// whose tool loops need the reasoning of the turn in progress sent back as
// reasoning_content (DeepSeek answers HTTP 400 "Missing reasoning_content field"
// otherwise). The decision is by model name, so it holds whichever endpoint serves
// the model: api.deepseek.com ("deepseek-reasoner"), OpenRouter
// ("deepseek/deepseek-r1-0528:free", "deepseek/deepseek-v3.2"), Ollama
// ("deepseek-r1:8b") or any custom base URL. Matched, case-insensitively, on the
// last path segment of the id: it contains "deepseek" and one of "reasoner", "r1",
// "think" or "v3.2" (the thinking-capable generation). deepseek-chat and
// deepseek-coder are not thinking models.
func deepseekThinking(model string) bool {
	id := strings.ToLower(model)
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	if !strings.Contains(id, "deepseek") {
		return false
	}
	for _, mark := range []string{"reasoner", "-r1", "think", "v3.2"} {
		if strings.Contains(id, mark) {
			return true
		}
	}
	return false
}
