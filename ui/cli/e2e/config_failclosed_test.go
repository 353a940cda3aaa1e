package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestRunFailsClosedOnBrokenConfig (issue 10, class 13): a config or settings
// file that does not parse, in any of its forms, stops `pincer run` with exit 2
// and a "FILE:LINE: ..." line before anything runs — the denied command does
// not run, and the model is never called — whatever the permission mode and
// the --allowed-tools.
func TestRunFailsClosedOnBrokenConfig(t *testing.T) {
	deny := "[permissions]\ndeny = [\"Bash(touch:*)\"]\n"
	cases := []struct {
		name, file, body string
	}{
		{"user config typo", "home:config.toml", "verbose = tru\n" + deny},
		{"project config typo", ".pincer/config.toml", deny + "[sandbox]\nenabled = fals\n"},
		{"project config unclosed string", ".pincer/config.toml", "[permissions]\ndeny = [\"Bash(touch:*)]\n"},
		{"local settings duplicate key", ".pincer/settings.local.toml", deny + "deny = []\n"},
		{"misspelled deny", ".pincer/config.toml", "[permissions]\ndney = [\"Bash(touch:*)\"]\n"},
		{"deny rule that does not parse", ".pincer/config.toml", "[permissions]\ndeny = [\"Bash(touch:*\"]\n"},
		{"deny as a string", ".pincer/config.toml", "[permissions]\ndeny = \"Bash(touch:*)\"\n"},
		{"sandbox table of the wrong type", ".pincer/config.toml", "[sandbox]\nrequire_landlock = \"yes\"\n"},
		{"claude settings trailing comma", ".claude/settings.json", "{\n\"permissions\": {\"deny\": [\"Bash(touch:*)\"],}\n}\n"},
		{"claude local settings unclosed", ".claude/settings.local.json", "{\"permissions\": {\"deny\": [\"Bash(touch:*)\"]"},
		{"hook with a misspelled event", ".pincer/config.toml", "[[hooks.PreTooluse]]\ncommand = \"exit 2\"\n"},
		{"claude hook file broken", ".claude/settings.json", "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"exit 2\"}]}]}"},
	}
	fileLine := regexp.MustCompile(`pincer: \S+:\d+(:\d+)?: `)
	for _, c := range cases {
		for _, mode := range []string{"default", "bypassPermissions"} {
			t.Run(c.name+"/"+mode, func(t *testing.T) {
				e := newEnv(t,
					openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"touch PROOF_config"}`}}},
					openaitest.Reply{Text: "done"},
				)
				path := filepath.Join(e.repo, c.file)
				if rel, ok := strings.CutPrefix(c.file, "home:"); ok {
					path = filepath.Join(e.home, rel)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
					t.Fatal(err)
				}
				_, stderr, code := e.run(e.runArgs("--permission-mode", mode, "--allowed-tools", "Bash", "make a file")...)
				if code != 2 {
					t.Errorf("exit %d, want 2; stderr:\n%s", code, stderr)
				}
				if !strings.Contains(stderr, path) || !fileLine.MatchString(stderr) {
					t.Errorf("stderr does not name FILE:LINE of %s:\n%s", path, stderr)
				}
				if _, err := os.Stat(filepath.Join(e.repo, "PROOF_config")); err == nil {
					t.Error("the denied command ran")
				}
				if n := len(e.fake.Requests()); n != 0 {
					t.Errorf("the model was called %d times", n)
				}
			})
		}
	}
}

// TestRepeatedListFlagsAddUp: every --disallowed-tools (and --allowed-tools,
// --add-dir) adds its rules; a second one does not replace the first.
func TestRepeatedListFlagsAddUp(t *testing.T) {
	calls := func(names ...string) openaitest.Reply {
		var cs []openaitest.Call
		for i, n := range names {
			cs = append(cs, openaitest.Call{ID: "b" + strconv.Itoa(i), Name: "Bash", Args: `{"command":"touch ` + n + `"}`})
		}
		return openaitest.Reply{ToolCalls: cs}
	}
	// Denials, in bypassPermissions (where nothing else would stop them).
	e := newEnv(t, calls("PROOF_a", "PROOF_b", "PROOF_c"), openaitest.Reply{Text: "done"})
	_, stderr, code := e.run(e.runArgs("--permission-mode", "bypassPermissions",
		"--disallowed-tools", "Bash(touch PROOF_a)", "--disallowed-tools", "Bash(touch PROOF_b)",
		"--disallowed-tools=Bash(touch PROOF_c)", "touch them")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"PROOF_a", "PROOF_b", "PROOF_c"} {
		if _, err := os.Stat(filepath.Join(e.repo, f)); err == nil {
			t.Errorf("%s was made: a --disallowed-tools rule was dropped", f)
		}
	}
	// Permissions, in default mode (where an unmatched write is denied headless).
	e = newEnv(t, calls("made_c", "made_d"), openaitest.Reply{Text: "done"})
	_, stderr, code = e.run(e.runArgs("--allowed-tools", "Bash(touch made_c)", "--allowed-tools", "Bash(touch made_d)",
		"--add-dir", t.TempDir(), "--add-dir", t.TempDir(), "touch them")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"made_c", "made_d"} {
		if _, err := os.Stat(filepath.Join(e.repo, f)); err != nil {
			t.Errorf("%s was not made: an --allowed-tools rule was dropped", f)
		}
	}
}

// TestUnknownConfigKeyWarns: a misspelled top-level key of the user's
// config.toml is a warning naming FILE:LINE; the run goes on.
func TestUnknownConfigKeyWarns(t *testing.T) {
	e := newEnv(t, openaitest.Reply{Text: "done"})
	path := filepath.Join(e.home, "config.toml")
	if err := os.WriteFile(path, []byte("# mine\npermisions = { deny = [\"Bash\"] }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := e.run(e.runArgs("hi")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, path+":2: unknown key \"permisions\"") {
		t.Errorf("no warning naming %s:2:\n%s", path, stderr)
	}
}

// TestProjectSettingsCannotChooseTheMode (issue 10, class 5): Claude Code's
// permissions.defaultMode (and pincer-looking keys for it) in a project's
// settings files are not obeyed — only --permission-mode sets the mode — so a
// write command still needs an approval (denied headless).
func TestProjectSettingsCannotChooseTheMode(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"touch PROOF_mode"}`}}},
		openaitest.Reply{Text: "done"},
	)
	for _, d := range []string{".claude", ".pincer"} {
		if err := os.MkdirAll(filepath.Join(e.repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.write(".claude/settings.json", `{"permissions": {"defaultMode": "bypassPermissions", "disableBypassPermissionsMode": "disable"}}`)
	e.write(".claude/settings.local.json", `{"permissions": {"defaultMode": "acceptEdits"}}`)
	_, stderr, code := e.run(e.runArgs("make a file")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(e.repo, "PROOF_mode")); err == nil {
		t.Error("a project settings file chose the permission mode: the command ran unasked")
	}
}
