package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestConfiguredContextWindowCompacts: a model the catalog does not know gets
// its window from [models."NAME"] context_window: /context reports it, and a
// continued session past the threshold of that window compacts on its own
// (one summary call before the turn's own) through the real binary.
func TestConfiguredContextWindowCompacts(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "first answer"}, openaitest.Reply{Text: "second answer"},
		openaitest.Reply{Text: "Goal: test. Summary."}, openaitest.Reply{Text: "third answer"})
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte("[models.\"test-model\"]\ncontext_window = 8192\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := e.run(e.runArgs("/context")...)
	if code != 0 || !strings.Contains(out, "of 8192 tokens") {
		t.Fatalf("/context: %d %q %s", code, out, stderr)
	}
	// two prompts of ~14 KB each: the second passes 85% of 8192 tokens
	big := strings.Repeat("lorem ipsum dolor sit amet ", 520)
	if _, stderr, code := e.run(e.runArgs("one")...); code != 0 {
		t.Fatalf("run one: %s", stderr)
	}
	if _, stderr, code := e.run(e.runArgs("--continue", "two "+big)...); code != 0 {
		t.Fatalf("run two: %s", stderr)
	}
	out, stderr, code = e.run(e.runArgs("--continue", "--output-format", "stream-json", "three "+big)...)
	if code != 0 {
		t.Fatalf("run two: %d %s", code, stderr)
	}
	compacted := false
	for _, ev := range parseStream(t, out) {
		compacted = compacted || ev.Type == "compaction.completed"
	}
	reqs := e.fake.Requests()
	if !compacted || len(reqs) != 4 {
		t.Fatalf("no automatic compaction under context_window = 8192: compacted %v, %d requests\n%s", compacted, len(reqs), out)
	}
	if !strings.Contains(out, "third answer") {
		t.Errorf("the turn after the compaction did not answer: %s", out)
	}
}
