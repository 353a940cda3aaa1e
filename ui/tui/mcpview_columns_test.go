package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/mcp"
)

// longNameStates are servers with a long plugin name among short ones.
func longNameStates() []mcp.ServerState {
	return []mcp.ServerState{
		{Config: mcp.ServerConfig{Name: "ev", Transport: mcp.TransportStdio, Command: "ev", Scope: mcp.ScopeUser}, Status: mcp.StatusReady, Tools: []string{"mcp__ev__echo"}},
		{Config: mcp.ServerConfig{Name: "plugin_my-plugin_shouter", Transport: mcp.TransportStdio, Command: "shout", Scope: mcp.ScopePlugin, Plugin: "my-plugin"},
			Status: mcp.StatusFailed, Reason: "connection closed"},
		{Config: mcp.ServerConfig{Name: "remote", Scope: mcp.ScopeUser, Broken: "not started: MCP_TOKEN is not set (/h/config.toml:3)"},
			Status: mcp.StatusFailed, Reason: "not started: MCP_TOKEN is not set (/h/config.toml:3)"},
	}
}

// TestMCPViewColumns: the status column starts at the same cell on every
// server's row, after the widest name; at a narrow width each row is cut
// with "…" to the width.
func TestMCPViewColumns(t *testing.T) {
	col := -1
	for _, r := range mcpRows(longNameStates(), 0, "", "a", 100) {
		if !rowIsServer(r) {
			continue
		}
		name := strings.Fields(strings.TrimPrefix(r.text, "▸"))[0]
		at := strings.Index(r.text, name) + len(name)
		rest := r.text[at:]
		at += len(rest) - len(strings.TrimLeft(rest, " "))
		at = textWidth(r.text[:at]) // cells, not bytes ("▸" is three)
		if col >= 0 && at != col {
			t.Errorf("status column at %d, want %d: %q", at, col, r.text)
		}
		col = at
		if textWidth(r.text) > 100 {
			t.Errorf("row wider than 100: %q", r.text)
		}
	}
	for _, r := range mcpRows(longNameStates(), 0, "", "a", 30) {
		if rowIsServer(r) && textWidth(r.text) > 30 {
			t.Errorf("row wider than 30: %q", r.text)
		}
	}
	rows := mcpRows(longNameStates(), 0, "", "a", 30)
	if !strings.Contains(rows[len(rows)-2].text, "…") {
		t.Errorf("long name not cut: %q", rows[len(rows)-2].text)
	}
}

// TestMCPViewLongNamesGolden: the view's frame with a long plugin name and a
// broken entry at 70x16, the key bar showing /mcp's keys (-update rewrites it).
func TestMCPViewLongNamesGolden(t *testing.T) {
	name := filepath.Join("testdata", "golden", "mcp-long-70x16.txt")
	b := startBench(t, 70, 16, Options{})
	b.w.pump.post(func() {
		b.w.storeState = ""
		for _, st := range longNameStates() {
			b.w.mcpUpdate(st)
		}
		b.w.mcp.open, b.w.mcp.sel = true, 2
	})
	b.waitText("MCP servers (3)", "Esc close")
	var got string
	b.onLoop(func() {
		b.w.app.ForceDraw()
		got = frame(b.sim)
	})
	b.stop()
	if !strings.Contains(got, "j/k select") {
		t.Errorf("the key bar does not show /mcp's keys:\n%s", got)
	}
	if *updateGolden {
		_ = os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (-update rewrites it)\n got:\n%s\nwant:\n%s", name, got, want)
	}
}
