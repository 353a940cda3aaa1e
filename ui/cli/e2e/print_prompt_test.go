package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestPrintSystemPromptHasSkills: --print-system-prompt prints the # Skills
// section a new session's first request carries (one builder), through the
// real binary.
func TestPrintSystemPromptHasSkills(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "ok"})
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude", "skills", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".claude/skills/demo/SKILL.md", "---\ndescription: demo skill MARKER-SKILL\n---\nbody\n")
	out, stderr, code := e.run(e.runArgs("--print-system-prompt")...)
	if code != 0 || !strings.Contains(out, "# Skills") || !strings.Contains(out, "- demo: demo skill MARKER-SKILL") {
		t.Fatalf("--print-system-prompt: %d %s\n%s", code, stderr, out)
	}
	if _, stderr, code := e.run(e.runArgs("hi")...); code != 0 {
		t.Fatal(stderr)
	}
	b, _ := json.Marshal(e.fake.Requests()[0]["messages"])
	var msgs []struct{ Role, Content string }
	_ = json.Unmarshal(b, &msgs)
	if len(msgs) == 0 || !strings.Contains(msgs[0].Content, "- demo: demo skill MARKER-SKILL") {
		t.Errorf("the first request's system message lacks the skill the printed prompt has")
	}
	if strings.Contains(out, "pincer:dynamic") {
		t.Errorf("the printed prompt shows the internal cache marker line:\n%s", out)
	}
	skills := out[strings.Index(out, "# Skills"):]
	if i := strings.Index(skills, "\n# "); i >= 0 { // the next section
		skills = skills[:i]
	}
	skills = strings.TrimSpace(skills)
	if !strings.Contains(msgs[0].Content, skills) {
		t.Errorf("the printed # Skills section differs from the request's:\n%q\n---\n%q", skills, msgs[0].Content)
	}
}
