package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeSandboxBlockWarns: Claude Code's "sandbox" object in a
// .claude/settings*.json ({"enabled": false, "excludedCommands": [...]}) is
// not pincer's [sandbox] table; it is not applied — the sandbox stays on —
// and a warning at its FILE:LINE says so (docs/SECURITY.md), never silence.
func TestClaudeSandboxBlockWarns(t *testing.T) {
	for _, tc := range []struct{ file, body, want string }{
		{".claude/settings.json", "{\n  \"sandbox\": {\"enabled\": false, \"excludedCommands\": [\"curl\"]}\n}\n", ".claude/settings.json:2:"},
		{".claude/settings.local.json", "{\"permissions\": {},\n\n \"sandbox\": {\"excludedCommands\": [\"docker\"]}}\n", ".claude/settings.local.json:3:"},
		{".claude/settings.json", "{\"sandbox\": false}\n", ".claude/settings.json:1:"},
	} {
		ws := writeConfigs(t, "", "")
		_ = os.MkdirAll(filepath.Join(ws, ".claude"), 0o755)
		if err := os.WriteFile(filepath.Join(ws, tc.file), []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		p := sandboxPolicyFor(ws, sandboxFlags{}, &w)
		if p == nil || !p.Enabled {
			t.Errorf("%s: a project's sandbox block turned the sandbox off: %+v", tc.file, p)
		}
		out := w.String()
		if !strings.Contains(out, tc.want) || !strings.Contains(out, "not applied") {
			t.Errorf("%s %q: no warning at %s:\n%s", tc.file, tc.body, tc.want, out)
		}
	}
	// The user's ~/.claude/settings.json: not applied either (pincer's sandbox
	// is configured in config.toml's [sandbox]), said once.
	ws := writeConfigs(t, "", "")
	home := t.TempDir()
	t.Setenv("HOME", home)
	_ = os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte("{\"sandbox\": {\"enabled\": false}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if p := sandboxPolicyFor(ws, sandboxFlags{}, &w); p == nil || !strings.Contains(w.String(), "settings.json:1:") || !strings.Contains(w.String(), "[sandbox]") {
		t.Errorf("user's Claude sandbox block: policy %+v, warnings:\n%s", p, w.String())
	}
}
