package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPFileNote (new user r24 #5): /mcp says when the project's
// .mcp.json was created, changed or removed after start, and nothing when
// it is as read.
func TestMCPFileNote(t *testing.T) {
	repo := t.TempDir()
	path := filepath.Join(repo, ".mcp.json")
	b := &Backend{Repo: repo, MCPWarnings: []string{"a problem"}}
	b.mcpFileAtStart = stampOf(path)
	if got := b.MCPConfigWarnings(); len(got) != 1 {
		t.Errorf("as read: %q", got)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := b.MCPConfigWarnings(); len(got) != 2 || !strings.Contains(got[1], "was created after pincer started: restart pincer") {
		t.Errorf("created: %q", got)
	}
	b.mcpFileAtStart = stampOf(path)
	if got := b.MCPConfigWarnings(); len(got) != 1 {
		t.Errorf("as read again: %q", got)
	}
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"x":{"command":"true"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := b.MCPConfigWarnings(); len(got) != 2 || !strings.Contains(got[1], "changed after pincer started") {
		t.Errorf("changed: %q", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := b.MCPConfigWarnings(); len(got) != 2 || !strings.Contains(got[1], "was removed") {
		t.Errorf("removed: %q", got)
	}
}
