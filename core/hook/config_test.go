package hook

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// writeFile writes data to dir/rel, creating directories.
func writeFile(t *testing.T, dir, rel, data string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// isolate points HOME and XDG_CONFIG_HOME at empty directories.
func isolate(t *testing.T) (home string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	return home
}

func TestLoadMergesAllSources(t *testing.T) {
	home := isolate(t)
	pincerHome, proj := t.TempDir(), t.TempDir()
	writeFile(t, pincerHome, "config.toml", `
[model]
default = "x/y"

[[hooks.PreToolUse]]
matcher = "Edit|Write"
command = "user-toml"
timeout = 30

[[hooks.SessionStart]]
command = "user-start"
`)
	writeFile(t, home, ".claude/settings.json", `{"model": "opus", "hooks": {"PreToolUse": [
		{"matcher": "Bash", "hooks": [{"type": "command", "command": "user-claude", "timeout": 5}]}],
		"Notification": [{"hooks": [{"type": "command", "command": "never"}]}]}}`)
	writeFile(t, proj, ".pincer/config.toml", "[[hooks.PreToolUse]]\ncommand = \"project-toml\"\ntimeout = 1.5\n")
	writeFile(t, proj, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"hooks": [
		{"type": "command", "command": "project-claude-1"}, {"type": "command", "command": "project-claude-2"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "project-stop"}]}]}}`)
	writeFile(t, proj, ".claude/settings.local.json", `{"hooks": {"PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "local-post"}]}]}}`)

	r, errs := Load(proj, pincerHome)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	got := r.Defs()
	want := map[Event][]Def{
		PreToolUse: {
			{Matcher: "Edit|Write", Command: "user-toml", Timeout: 30 * time.Second, Source: filepath.Join(pincerHome, "config.toml")},
			{Matcher: "Bash", Command: "user-claude", Timeout: 5 * time.Second, Source: filepath.Join(home, ".claude/settings.json")},
			{Command: "project-toml", Timeout: 1500 * time.Millisecond, Source: filepath.Join(proj, ".pincer/config.toml"), Project: true},
			{Command: "project-claude-1", Source: filepath.Join(proj, ".claude/settings.json"), Project: true},
			{Command: "project-claude-2", Source: filepath.Join(proj, ".claude/settings.json"), Project: true},
		},
		SessionStart: {{Command: "user-start", Source: filepath.Join(pincerHome, "config.toml")}},
		Stop:         {{Command: "project-stop", Source: filepath.Join(proj, ".claude/settings.json"), Project: true}},
		PostToolUse:  {{Matcher: "*", Command: "local-post", Source: filepath.Join(proj, ".claude/settings.local.json"), Project: true}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Defs =\n%v\nwant\n%v", got, want)
	}
	if r.Empty() || !r.Has(Stop) || r.Has(PreCompact) {
		t.Errorf("Empty/Has wrong")
	}
}

func TestLoadNothing(t *testing.T) {
	isolate(t)
	r, errs := Load(t.TempDir(), "")
	if len(errs) > 0 || r == nil || !r.Empty() {
		t.Errorf("Load of nothing = %v, %v", r, errs)
	}
}

// TestLoadBadFiles: a bad file is named (with its line), contributes nothing, and
// the other files still load.
func TestLoadBadFiles(t *testing.T) {
	home := isolate(t)
	pincerHome, proj := t.TempDir(), t.TempDir()
	badTOML := writeFile(t, pincerHome, "config.toml", "[[hooks.PreToolUse]]\ncommand = \"a\"\n[[hooks.PreToolUse]\n")
	badJSON := writeFile(t, proj, ".claude/settings.json", "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n")
	typeJSON := writeFile(t, home, ".claude/settings.json", "{\"hooks\": {\n\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\", \"timeout\": \"30\"}]}]}}")
	writeFile(t, proj, ".claude/settings.local.json", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "good"}]}]}}`)

	r, errs := Load(proj, pincerHome)
	if got := r.Defs()[PreToolUse]; len(got) != 1 || got[0].Command != "good" {
		t.Errorf("loaded %v, want only the good file", got)
	}
	for _, err := range errs {
		t.Log(err)
	}
	wantLines := map[string]int{badTOML: 3, typeJSON: 2, badJSON: 3}
	if len(errs) != len(wantLines) {
		t.Fatalf("errors = %v", errs)
	}
	for _, err := range errs {
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("%v is not a *FileError", err)
		}
		line, ok := wantLines[fe.Path]
		if !ok || fe.Line != line {
			t.Errorf("error %v: want line %d", err, line)
		}
		if !strings.HasPrefix(err.Error(), fe.Path+":") {
			t.Errorf("error %q does not start with the file name", err)
		}
	}
}

// TestLoadBadEntries: an invalid entry is reported and skipped; its file's other
// entries load.
func TestLoadBadEntries(t *testing.T) {
	isolate(t)
	proj := t.TempDir()
	toml := writeFile(t, proj, ".pincer/config.toml", `
[[hooks.PreToolUse]]
matcher = "(Edit"
command = "bad-matcher"
[[hooks.PreToolUse]]
command = "  "
[[hooks.PreToolUse]]
command = "neg"
timeout = -1
[[hooks.PreTool]]
command = "typo"
[[hooks.PreToolUse]]
command = "ok-toml"
`)
	claude := writeFile(t, proj, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "http", "url": "http://x"}, {"type": "command", "command": "ok-claude"}]}]}}`)
	r, errs := Load(proj, "")
	var cmds []string
	for _, d := range r.Defs()[PreToolUse] {
		cmds = append(cmds, d.Command)
	}
	if !reflect.DeepEqual(cmds, []string{"ok-toml", "ok-claude"}) {
		t.Errorf("loaded %v", cmds)
	}
	want := []string{
		toml + `: hooks.PreTool: unknown hook event`,
		toml + `: hooks.PreToolUse[0]: matcher "(Edit" is not a valid regular expression`,
		toml + `: hooks.PreToolUse[1]: command is empty`,
		toml + `: hooks.PreToolUse[2]: timeout -1 is not a number of seconds`,
		claude + `: hooks.PreToolUse[0].hooks[0]: hook type "http" is not supported by pincer`,
	}
	if len(errs) != len(want) {
		t.Fatalf("errors = %v", errs)
	}
	lines := []string{":10:", ":2:", ":5:", ":7:", ":2:"} // where each problem's table (or JSON hook object) starts
	for i, err := range errs {
		got := err.Error()
		if lines[i] != "" {
			if !strings.Contains(got, lines[i]) {
				t.Errorf("error %d = %q, want line %s", i, got, lines[i])
			}
			got = strings.Replace(got, lines[i], ":", 1)
		}
		if !strings.HasPrefix(got, want[i]) {
			t.Errorf("error %d = %q, want prefix %q", i, err, want[i])
		}
	}
}

// TestLoadSameFileOnce: a project at the home directory reads ~/.claude/settings.json once.
func TestLoadSameFileOnce(t *testing.T) {
	home := isolate(t)
	writeFile(t, home, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "once"}]}]}}`)
	r, errs := Load(home, "")
	if len(errs) > 0 || len(r.Defs()[Stop]) != 1 {
		t.Errorf("defs %v errs %v", r.Defs(), errs)
	}
}

func TestNewRunnerErrors(t *testing.T) {
	r, errs := NewRunner(map[Event][]Def{
		PreToolUse: {{Command: "ok"}, {Command: "x", Matcher: "[", Source: "f.toml"}, {Command: ""}},
		"Bogus":    {{Command: "y"}},
	}, t.TempDir())
	if len(r.Defs()[PreToolUse]) != 1 || len(r.Defs()) != 1 {
		t.Errorf("defs = %v", r.Defs())
	}
	if len(errs) != 3 {
		t.Fatalf("errs = %v", errs)
	}
	var fe *FileError
	found := false
	for _, err := range errs {
		found = found || (errors.As(err, &fe) && fe.Path == "f.toml")
	}
	if !found {
		t.Errorf("no error names f.toml: %v", errs)
	}
}

func TestNilRunner(t *testing.T) {
	var r *Runner
	if !r.Empty() || r.Has(PreToolUse) || len(r.Defs()) != 0 {
		t.Error("nil runner not empty")
	}
	if got := r.PreToolUse(t.Context(), Common{}, "Bash", nil, "id"); !reflect.DeepEqual(got, PreToolResult{}) {
		t.Errorf("nil runner PreToolUse = %+v", got)
	}
}
