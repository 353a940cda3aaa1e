package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestSubdirCommandByShortName: .claude/commands/frontend/lint.md runs as
// /lint (Claude Code's name) and as /frontend:lint, its body with the argument
// reaching the model through the real binary.
func TestSubdirCommandByShortName(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "linted"}, openaitest.Reply{Text: "linted again"})
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude", "commands", "frontend"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".claude/commands/frontend/lint.md", "Lint the frontend file $0 with MARKER-LINT\n")
	for i, prompt := range []string{"/lint a.ts", "/frontend:lint a.ts"} {
		out, stderr, code := e.run(e.runArgs(prompt)...)
		if code != 0 {
			t.Fatalf("%s: exit %d %q %s", prompt, code, out, stderr)
		}
		reqs := e.fake.Requests()
		b, _ := json.Marshal(reqs[len(reqs)-1]["messages"])
		if len(reqs) != i+1 || !strings.Contains(string(b), "MARKER-LINT") || !strings.Contains(string(b), "a.ts") {
			t.Errorf("%s: the command's body did not reach the model: %s", prompt, b)
		}
	}
}
