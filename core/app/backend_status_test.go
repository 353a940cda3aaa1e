package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConfigFilesCountServersThatCannotStart (red team r23 W1): a .mcp.json
// that parses but whose every entry is refused is not just "ok": its
// ConfigFile counts the servers that cannot start; a good entry is not
// counted.
func TestConfigFilesCountServersThatCannotStart(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	repo := t.TempDir()
	mcp := `{"mcpServers": {
  "a": {"command": "node", "args": "notalist"},
  "b": {"type": "http"},
  "c": {"command": "x", "env": {"BAD NAME": "1"}},
  "d": {"url": "http://localhost:1/x"},
  "good": {"command": "true"}
}}`
	if err := os.WriteFile(filepath.Join(repo, ".mcp.json"), []byte(mcp), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &Backend{Repo: repo}
	var found bool
	for _, f := range b.ConfigFiles() {
		if f.Name != ".mcp.json" {
			if f.NotStarted != 0 {
				t.Errorf("%s counts %d servers that cannot start", f.Name, f.NotStarted)
			}
			continue
		}
		found = true
		if !f.Exists || f.Problem != "" || f.NotStarted != 4 {
			t.Errorf(".mcp.json = %+v, want it to exist, parse and count 4 servers that cannot start", f)
		}
	}
	if !found {
		t.Fatal("no .mcp.json among the config files")
	}
}
