package e2e

// A first-time user's rewinds through the real binary: turn 1 Edits f.txt,
// turn 2's Bash appends to it, creates new.txt and removes g.txt, turn 3's
// Write adds pkg/new.py. `rewind -c` without --turn lists
// the turns and exits 2; rewinding to before turn 2 and then to before turn 1
// both work (the first rewind's restores are pincer's, not outside changes),
// the created pkg/ goes with its file; the help of rewind and sessions diff
// lists their flags; sessions show numbers the turns.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestRewindTwice(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"f.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "e1", Name: "Edit", Args: `{"file_path":"f.txt","old_string":"one","new_string":"ONE"}`}}},
		openaitest.Reply{Text: "edited"},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"echo more >> f.txt && echo new > new.txt && rm g.txt"}`}}},
		openaitest.Reply{Text: "bashed"},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "w1", Name: "Write", Args: `{"file_path":"pkg/new.py","content":"print(1)\n"}`}}},
		openaitest.Reply{Text: "wrote"},
	)
	e.write("f.txt", "one\n")
	e.write("g.txt", "gee\n")
	for i, prompt := range []string{"edit f please", "now the shell", "a new package"} {
		args := e.runArgs("--permission-mode", "bypassPermissions", prompt)
		if i > 0 {
			args = e.runArgs("--permission-mode", "bypassPermissions", "--continue", prompt)
		}
		if _, stderr, code := e.run(args...); code != 0 {
			t.Fatalf("turn %d: %d %s", i+1, code, stderr)
		}
	}
	out, stderr, code := e.run("rewind", "-c")
	if code != 2 || !strings.Contains(out, "  1  ") || !strings.Contains(out, "edit f please") ||
		!strings.Contains(out, "f.txt, g.txt, new.txt") || !strings.Contains(out, "pkg/new.py") {
		t.Fatalf("rewind -c without --turn: exit %d, want 2 and the turns listed:\n%s%s", code, out, stderr)
	}
	id := strings.TrimSuffix(strings.Fields(out)[3], ":") // "Turns of session ID:"
	if out, stderr, code = e.run("rewind", "-c", "--turn", "2", "--code"); code != 0 {
		t.Fatalf("rewind to before turn 2: %d\n%s%s", code, out, stderr)
	}
	if e.read("f.txt") != "ONE\n" || e.read("g.txt") != "gee\n" || e.exists("new.txt") || e.exists("pkg") {
		t.Fatalf("after the rewind to before turn 2: f.txt %q, new.txt %v, pkg/ %v", e.read("f.txt"), e.exists("new.txt"), e.exists("pkg"))
	}
	if out, stderr, code = e.run("rewind", "-c", "--turn", "1", "--code"); code != 0 {
		t.Fatalf("the second rewind was refused: %d\n%s%s", code, out, stderr)
	}
	if e.read("f.txt") != "one\n" || e.read("g.txt") != "gee\n" {
		t.Fatalf("after the rewind to before turn 1: f.txt %q g.txt %q", e.read("f.txt"), e.read("g.txt"))
	}
	if out, stderr, code = e.run("rewind", "-c", "--turn", "1"); code != 0 || !strings.Contains(out, "The conversation is kept, as nothing is before turn 1") {
		t.Errorf("a code and conversation rewind to before turn 1 does not say the conversation was kept: %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code = e.run("rewind", "-c", "--turn", "1", "--conversation"); code == 0 || !strings.Contains(stderr, "keeps nothing") {
		t.Errorf("a conversation rewind to before turn 1 was not refused: %d\n%s%s", code, out, stderr)
	}
	for _, cmd := range [][]string{{"rewind", "--help"}, {"sessions", "diff", "--help"}} {
		out, _, _ := e.run(cmd...)
		if !strings.Contains(out, "-turn") {
			t.Errorf("%v prints no flag help:\n%s", cmd, out)
		}
	}
	if show, _, _ := e.run("sessions", "show", id); !strings.Contains(show, "Turn 1 (") || !strings.Contains(show, "Turn 3 (") {
		t.Errorf("sessions show does not number the turns:\n%s", show)
	}
}

// exists reports whether name (relative to the repository) is there.
func (e *env) exists(name string) bool {
	_, err := os.Lstat(filepath.Join(e.repo, name))
	return err == nil
}
