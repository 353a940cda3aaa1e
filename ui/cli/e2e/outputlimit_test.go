package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestOutputLimitWarning: an answer cut by the output limit (finish_reason
// "length") prints the text, then one warning line on stderr in text output, and
// sets stopReason "max_tokens" in json output.
func TestOutputLimitWarning(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "The first half of", Finish: "length"}, openaitest.Reply{Text: "The first half of", Finish: "length"})
	out, stderr, code := e.run(e.runArgs("write a long essay")...)
	if code != 0 || !strings.Contains(out, "The first half of") {
		t.Fatalf("text run: exit %d, out %q, stderr %q", code, out, stderr)
	}
	if n := strings.Count(stderr, "cut off by the output token limit"); n != 1 || !strings.Contains(stderr, "warning") {
		t.Errorf("text run stderr %q: want one output-limit warning", stderr)
	}
	out, stderr, code = e.run(e.runArgs("--output-format", "json", "write a long essay")...)
	var res struct {
		StopReason string `json:"stopReason"`
		Result     string `json:"result"`
		IsError    bool   `json:"isError"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.StopReason != "max_tokens" || res.IsError || res.Result != "The first half of" {
		t.Fatalf("json run: exit %d, out %q, stderr %q", code, out, stderr)
	}
}
