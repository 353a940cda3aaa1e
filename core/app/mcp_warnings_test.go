package app

import (
	"os"
	"strings"
	"testing"
)

// TestMCPWarningsOfBrokenFile: a .mcp.json that does not parse is among
// Setup.MCPWarnings (FILE:LINE), and so reaches the workbench's /mcp through
// NewBackend, while a broken user config.toml is not an MCP problem.
func TestMCPWarningsOfBrokenFile(t *testing.T) {
	opts := prepareHere(t)
	if err := os.WriteFile(".mcp.json", []byte("{\"mcpServers\": {\n  \"x\": {\"command\": \n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Prepare(opts)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(s.MCPWarnings, "\n")
	if !strings.Contains(got, ".mcp.json:") {
		t.Fatalf("MCPWarnings %q lack the broken .mcp.json's FILE:LINE", got)
	}
	if !strings.Contains(strings.Join(s.Warnings, "\n"), ".mcp.json:") {
		t.Errorf("the problem left Warnings: %q", s.Warnings)
	}
	if be := NewBackend(&Run{Setup: s}, nil); strings.Join(be.MCPConfigWarnings(), "\n") != got {
		t.Errorf("the backend's %q, want %q", be.MCPConfigWarnings(), got)
	}
}
