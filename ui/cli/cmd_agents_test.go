package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pincer agents lists the built-ins and the project's and user's definitions,
// reports a file that does not parse as FILE:LINE on stderr, never writes a
// file's control sequences, and takes --json; a bad argument exits 2.
func TestAgentsCommand(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PINCER_HOME", filepath.Join(home, "pincer"))
	root := t.TempDir()
	t.Chdir(root)
	write := func(path, body string) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, ".claude/agents/reviewer.md"), "---\nname: reviewer\ndescription: \"Reviews \\e]0;pwned\\a diffs\"\ntools: Read, Grep\nmodel: haiku\nmaxTurns: 5\n---\nReview.\n")
	write(filepath.Join(root, ".claude/agents/broken.md"), "---\nname: broken\ndescription: d\npermissionMode: yolo\n---\nx\n")
	write(filepath.Join(home, ".claude/agents/mine.md"), "---\ndescription: my helper\ndisallowedTools: Write\n---\nHelp.\n")

	var out, errb bytes.Buffer
	if code := Main([]string{"agents"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{"general-purpose (built-in)", "Explore (built-in)", "Plan (built-in)", "read-only (plan mode)",
		"reviewer (project)", "  tools: Read, Grep", "model: haiku", "maxTurns: 5", "mine (user)", "tools: All tools except Write"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "broken") || !strings.Contains(errb.String(), "broken.md:4") {
		t.Errorf("the broken file: stdout %q stderr %q", text, errb.String())
	}
	if strings.ContainsAny(text+errb.String(), "\x1b\x07") {
		t.Errorf("a control sequence reached the terminal: %q", text)
	}

	out.Reset()
	errb.Reset()
	if code := Main([]string{"agents", "list", "--json"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errb.String())
	}
	var list []map[string]any
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(list) != 5 || list[0]["name"] != "general-purpose" || list[3]["name"] != "reviewer" || list[3]["maxTurns"] != float64(5) {
		t.Errorf("json %v", list)
	}
	for _, args := range [][]string{{"agents", "frob"}, {"agents", "--nope"}} {
		if code := Main(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
