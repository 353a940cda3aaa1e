package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/core/provider/providertest"
)

// TestMCPNotice: which changes of a server's state become a notice.
func TestMCPNotice(t *testing.T) {
	cfg := mcp.ServerConfig{Name: "everything"}
	st := func(s mcp.Status, tools int, reason string) *mcp.ServerState {
		x := mcp.ServerState{Config: cfg, Status: s, Reason: reason}
		for i := 0; i < tools; i++ {
			x.Tools = append(x.Tools, "t")
		}
		return &x
	}
	cases := []struct {
		name        string
		prev, next  *mcp.ServerState
		level, text string
	}{
		{"first seen connecting", nil, st(mcp.StatusConnecting, 0, ""), "", ""},
		{"ready", st(mcp.StatusConnecting, 0, ""), st(mcp.StatusReady, 12, ""), "info", "mcp: everything ready, 12 tools"},
		{"ready at once", nil, st(mcp.StatusReady, 1, ""), "info", "mcp: everything ready, 1 tool"},
		{"still ready", st(mcp.StatusReady, 12, ""), st(mcp.StatusReady, 12, ""), "", ""},
		{"relisted", st(mcp.StatusReady, 12, ""), st(mcp.StatusReady, 13, ""), "info", "mcp: everything now offers 13 tools"},
		{"failed", st(mcp.StatusReady, 12, ""), st(mcp.StatusFailed, 0, "EOF"), "warning", "mcp: everything failed: EOF"},
		{"failed otherwise", st(mcp.StatusFailed, 0, "EOF"), st(mcp.StatusFailed, 0, "refused"), "warning", "mcp: everything failed: refused"},
		{"failed the same", st(mcp.StatusFailed, 0, "EOF; reconnecting in 1s"), st(mcp.StatusFailed, 0, "EOF; reconnecting in 2s"), "", ""},
		{"reconnecting", st(mcp.StatusFailed, 0, "EOF"), st(mcp.StatusConnecting, 0, ""), "", ""},
		{"retry fails the same", lastErr(st(mcp.StatusConnecting, 0, ""), "EOF; stderr: boom 1"), lastErr(st(mcp.StatusFailed, 0, "EOF; stderr: boom 2; reconnecting in 4s"), "EOF; stderr: boom 2"), "", ""},
		{"retry fails otherwise", lastErr(st(mcp.StatusConnecting, 0, ""), "EOF"), lastErr(st(mcp.StatusFailed, 0, "timed out after 10s; reconnecting in 4s"), "timed out after 10s"), "warning", "mcp: everything failed: timed out after 10s; reconnecting in 4s"},
		{"first connect fails", st(mcp.StatusConnecting, 0, ""), lastErr(st(mcp.StatusFailed, 0, "EOF; reconnecting in 1s"), "EOF"), "warning", "mcp: everything failed: EOF; reconnecting in 1s"},
		{"fails after being ready", st(mcp.StatusReady, 3, ""), lastErr(st(mcp.StatusFailed, 0, "EOF"), "EOF"), "warning", "mcp: everything failed: EOF"},
		{"back", st(mcp.StatusConnecting, 0, ""), st(mcp.StatusReady, 12, ""), "info", "mcp: everything ready, 12 tools"},
		{"needs approval", nil, st(mcp.StatusNeedsApproval, 0, ""), "warning", "mcp: everything (from .mcp.json) needs your approval before it starts: /mcp"},
		{"needs approval again", st(mcp.StatusNeedsApproval, 0, ""), st(mcp.StatusNeedsApproval, 0, ""), "", ""},
		{"disabled", nil, st(mcp.StatusDisabled, 0, ""), "", ""},
	}
	for _, c := range cases {
		level, text, ok := mcpNotice(c.prev, *c.next)
		if ok != (c.text != "") || level != c.level || text != c.text {
			t.Errorf("%s: %q %q %v; want %q %q", c.name, level, text, ok, c.level, c.text)
		}
	}
}

// lastErr sets st's LastError.
func lastErr(st *mcp.ServerState, e string) *mcp.ServerState { st.LastError = e; return st }

// goldenMCPStates are fixed states for the view's frames.
func goldenMCPStates(ws string) []mcp.ServerState {
	return []mcp.ServerState{
		{Config: mcp.ServerConfig{Name: "everything", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}, Scope: mcp.ScopeUser},
			Status: mcp.StatusReady, Tools: []string{"mcp__everything__echo", "mcp__everything__get-sum"},
			Prompts: []mcp.PromptInfo{{Name: "simple-prompt"}}, Resources: []mcp.ResourceInfo{{URI: "demo://a"}}, Instructions: "Use echo.\nMore."},
		{Config: mcp.ServerConfig{Name: "local", Transport: mcp.TransportStdio, Command: "sh", Args: []string{"-c", "touch it"}, Env: map[string]string{"K": "secret", "NODE_OPTIONS": "--require ./e.js"},
			Written: mcp.Written{Command: "sh", Args: []string{"-c", "touch it"}, Env: map[string]string{"K": "${GITHUB_TOKEN}", "NODE_OPTIONS": "--require ./e.js"}},
			Scope:   mcp.ScopeProject, File: filepath.Join(ws, ".mcp.json"), Line: 3, Fingerprint: "f"}, Status: mcp.StatusNeedsApproval},
		{Config: mcp.ServerConfig{Name: "remote", Transport: mcp.TransportHTTP, URL: "https://mcp.example/mcp", Headers: map[string]string{"Authorization": "Bearer x"},
			Written: mcp.Written{URL: "https://mcp.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${API_TOKEN}"}}, Scope: mcp.ScopeUser},
			Status: mcp.StatusFailed, Reason: "connection refused"},
	}
}

// TestMCPViewRows: the selected server shows what it runs and where it
// comes from, as its entry is written (${VAR} unexpanded, never the expanded
// values), with warnings under it; the approval question replaces the hint.
func TestMCPViewRows(t *testing.T) {
	states := goldenMCPStates("/ws")
	join := func(rows []mcpRow) string {
		var b strings.Builder
		for _, r := range rows {
			b.WriteString(r.text + "\n")
		}
		return b.String()
	}
	all := join(mcpRows(states, 0, "", "a", 100))
	for _, want := range []string{"▸ everything", "ready · 2 tools · 1 prompt · 1 resource", "user · stdio", "runs: npx -y @modelcontextprotocol/server-everything",
		"tools: mcp__everything__echo, mcp__everything__get-sum", "prompts: /mcp__everything__simple-prompt", "resources: demo://a", "instructions: Use echo.",
		"  local", "needs approval", "  remote", "failed"} {
		if !strings.Contains(all, want) {
			t.Errorf("rows lack %q:\n%s", want, all)
		}
	}
	local := join(mcpRows(states, 1, "", "a", 100))
	if !strings.Contains(local, "runs: sh -c 'touch it'  (env: K=${GITHUB_TOKEN}, NODE_OPTIONS='--require ./e.js')") ||
		!strings.Contains(local, "warning: NODE_OPTIONS='--require ./e.js' changes how the server's program loads code") ||
		!strings.Contains(local, "warning: sends your GITHUB_TOKEN to the server (as env K)") || !strings.Contains(local, "from /ws/.mcp.json:3") || !strings.Contains(local, "a approves") ||
		strings.Contains(local, "secret") || strings.Contains(local, "tools: ") {
		t.Errorf("local:\n%s", local)
	}
	ask := join(mcpRows(states, 1, "local", "a", 100))
	if !strings.Contains(ask, "Approve local for this project?") || !strings.Contains(ask, "y approves") {
		t.Errorf("question:\n%s", ask)
	}
	remote := join(mcpRows(states, 2, "", "a", 100))
	if !strings.Contains(remote, "failed: connection refused") || !strings.Contains(remote, "(headers: Authorization: 'Bearer ${API_TOKEN}')") || strings.Contains(remote, "Bearer x") {
		t.Errorf("remote:\n%s", remote)
	}
	if none := join(mcpRows(nil, 0, "", "a", 100)); !strings.Contains(none, "No MCP servers configured") {
		t.Errorf("none: %s", none)
	}
}

// TestMCPViewGolden: the view's frames at two sizes (-update rewrites them).
func TestMCPViewGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		name := filepath.Join("testdata", "golden", fmt.Sprintf("mcp-%dx%d.txt", size[0], size[1]))
		b := startBench(t, size[0], size[1], Options{})
		b.w.pump.post(func() {
			b.w.storeState = ""
			for _, st := range goldenMCPStates("/ws") {
				b.w.mcpUpdate(st)
			}
			b.w.mcp.open, b.w.mcp.sel = true, 1
		})
		b.waitText("MCP servers (3)", "a approves")
		var got string
		b.onLoop(func() {
			b.w.app.ForceDraw()
			got = frame(b.sim)
		})
		b.stop()
		if *updateGolden {
			_ = os.MkdirAll(filepath.Dir(name), 0o755)
			if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run with -update to write it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs (-update rewrites it)\n got:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// TestMCPViewApproves: with a real Manager — a user server over HTTP (a
// Go-SDK server), a project HTTP server and a project stdio server whose
// command would write a marker — the workbench notices the ready server; the
// project servers are listed as needing approval and not started; a on one
// asks, a y before the question was on screen 400 ms approves nothing, n
// takes it back, a then y after the grace records the approval (for this
// project, bound to the entry) and starts it; the other never starts.
func TestMCPViewApproves(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	user, proj := mcptest.NewGoServer(t, false), mcptest.NewGoServer(t, false)
	clock := &fakeClock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) { w.now = clock.Now })
	ag, root := newTestAgent(t, &providertest.Scripted{})
	marker := filepath.Join(t.TempDir(), "PROOF_evil")
	be := backendOf(ag)
	be.MCP = mcp.NewManager(mcp.Options{})
	t.Cleanup(func() { be.MCP.Close() })
	mcpJSON := filepath.Join(root, ".mcp.json")
	be.MCP.Start(t.Context(), []mcp.ServerConfig{
		{Name: "greeter", Transport: mcp.TransportHTTP, URL: user.URL, Scope: mcp.ScopeUser, Approved: true},
		{Name: "proj", Transport: mcp.TransportHTTP, URL: proj.URL, Scope: mcp.ScopeProject, File: mcpJSON, Line: 2, Fingerprint: "fp-proj"},
		{Name: "zevil", Transport: mcp.TransportStdio, Command: "sh", Args: []string{"-c", "touch " + marker}, Scope: mcp.ScopeProject, File: mcpJSON, Line: 3, Fingerprint: "fp-evil"},
	})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, s.ID)
	b.waitText("mcp: greeter ready, 1 tool")
	b.slash("/mcp")
	b.waitText("MCP servers (3)", "greeter", "ready · 1 tool", "proj", "zevil")
	b.key(tcell.KeyDown, 0, tcell.ModNone)
	b.waitText("a approves")
	b.key(tcell.KeyRune, 'a', tcell.ModNone)
	b.waitText("Approve proj for this project?")
	b.key(tcell.KeyRune, 'y', tcell.ModNone) // at once: not read yet
	b.waitText("read the command first")
	if proj.Calls.Load() != 0 || approvedIn(home) {
		t.Fatal("an early y approved")
	}
	b.key(tcell.KeyRune, 'n', tcell.ModNone)
	b.waitText("mcp: proj not approved")
	b.key(tcell.KeyRune, 'a', tcell.ModNone)
	b.waitText("Approve proj for this project?")
	clock.mu.Lock()
	clock.now = clock.now.Add(approvalGrace)
	clock.mu.Unlock()
	b.key(tcell.KeyRune, 'y', tcell.ModNone)
	b.waitText("mcp: proj ready, 1 tool") // the approval's notice may come first or after: the line shows the newest
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var said bool
		b.onLoop(func() {
			b.w.pump.drain()
			for _, n := range b.w.notices.recent {
				said = said || strings.HasPrefix(n.text, "mcp: approved proj for this project; starting it")
			}
		})
		if said {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no notice of the approval")
		}
	}
	if !approvedIn(home) {
		t.Error("no approval recorded")
	}
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the view to close", func(s string) bool { return !strings.Contains(s, "MCP servers (3)") })
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the unapproved project server ran")
	}
}

// approvedIn reports whether the approval record under home holds "fp-proj".
func approvedIn(home string) bool {
	data, err := os.ReadFile(filepath.Join(home, "data", "mcp-approvals.json"))
	return err == nil && strings.Contains(string(data), `"fp-proj"`)
}
