package mcp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/mcp"
	"pincer/core/mcp/mcptest"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// The model is the adversary: it tries tool-name forms that dodge the deny
// rule mcp__filesystem__write_file (case, extra underscores, look-alike
// letters, whitespace, zero-width characters, the server's name spelled
// otherwise). The registry knows only exact names, so each is an unknown tool
// and nothing is written; the exact name is denied.
func TestAttackToolNameFormsDodgingDeny(t *testing.T) {
	forms := []string{
		"mcp__filesystem__write_file", // the rule's own name: denied
		"MCP__filesystem__write_file",
		"mcp__Filesystem__write_file",
		"mcp__filesystem__WRITE_FILE",
		"mcp__filesystem___write_file",
		"mcp___filesystem__write_file",
		"mcp__filesystem__write__file",
		"mcp__filesystem__write_file ",
		" mcp__filesystem__write_file",
		"mcp__filesystem__write_file\n",
		"mcp__filesystem__write_file\u200b",
		"mcp__filesystem__wrіte_file", // Cyrillic і
		"mcp__fіlesystem__write_file", // Cyrillic і in the server
		"mcp__filesystem__write_ﬁle",  // the fi ligature
		"mcp__filesystem__write－file", // fullwidth hyphen-minus
		"mcp__filesystem__write_file__",
		"mcp__filesystem",
		"mcp__filesystem__",
		"mcp__filesystem__*",
	}
	var e *engine
	prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		if n == 1 {
			var calls []provider.Event
			for i, name := range forms {
				path := filepath.Join(e.root, fmt.Sprintf("proof-%d.txt", i))
				calls = append(calls, providertest.ToolCall(fmt.Sprintf("c%d", i), name, `{"path":"`+path+`","content":"PROOF"}`))
			}
			return providertest.ToolCalls(calls...)
		}
		return providertest.Text("done")
	}}
	e = newEngine(t, prov, agent.Config{PermissionMode: permission.ModeBypass, Rules: rules(t, "mcp__filesystem__write_file")}, bothServers(t))
	e.submit("write")
	got := results(prov.Request(1))
	for i, name := range forms {
		if _, err := os.Stat(filepath.Join(e.root, fmt.Sprintf("proof-%d.txt", i))); err == nil {
			t.Errorf("%q wrote its file", name)
		}
		r := got[fmt.Sprintf("c%d", i)]
		if i == 0 && !strings.Contains(r, "denied") || i > 0 && !strings.Contains(r, "unknown tool") {
			t.Errorf("%q: %q", name, r)
		}
	}
}

// A server named to collide with another's prefix ("filesystem__write",
// whose tool "file" would be mcp__filesystem__write__file, or "filesystem_"
// joining the separator) is refused before it starts; its command never runs.
func TestAttackServerNameCollision(t *testing.T) {
	dir := t.TempDir()
	var servers []mcp.ServerConfig
	names := []string{"filesystem__write", "filesystem_", "_filesystem", "filesystem file", "fіlesystem", "mcp__filesystem"}
	for i, n := range names {
		servers = append(servers, mcp.ServerConfig{Name: n, Command: "sh", Approved: true,
			Args: []string{"-c", fmt.Sprintf("echo PROOF > %s/proof-%d", dir, i)}})
	}
	m := startManager(t, mcp.Options{}, servers...)
	time.Sleep(300 * time.Millisecond)
	for i, st := range m.States() {
		if st.Status != mcp.StatusFailed {
			t.Errorf("%q: %s", st.Config.Name, st.Status)
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("proof-%d", i))); err == nil {
			t.Errorf("server %q ran its command", names[i])
		}
	}
	if len(m.Registry().Names()) != 0 {
		t.Errorf("tools: %v", m.Registry().Names())
	}
}

// An MCP tool is of kind execute whatever the server's readOnlyHint says: in
// plan mode a call is denied, and in the default mode it is asked — headless
// (no approver), that is a denial. Nothing is written either way.
func TestAttackModes(t *testing.T) {
	for _, mode := range []permission.Mode{permission.ModePlan, permission.ModeDefault} {
		t.Run(string(mode), func(t *testing.T) {
			var e *engine
			prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
				if n == 1 {
					return providertest.ToolCalls(
						providertest.ToolCall("w", "mcp__filesystem__write_file", `{"path":"`+filepath.Join(e.root, "proof.txt")+`","content":"PROOF"}`),
						providertest.ToolCall("r", "mcp__filesystem__list_allowed_directories", `{}`), // readOnlyHint: true
						providertest.ToolCall("s", "mcp__everything__get-sum", `{"a":1,"b":2}`))
				}
				return providertest.Text("done")
			}}
			e = newEngine(t, prov, agent.Config{PermissionMode: mode}, bothServers(t))
			e.submit("go")
			got := results(prov.Request(1))
			if _, err := os.Stat(filepath.Join(e.root, "proof.txt")); err == nil {
				t.Error("write_file wrote")
			}
			for _, id := range []string{"w", "r", "s"} {
				if !strings.Contains(strings.ToLower(got[id]), "denied") && !strings.Contains(strings.ToLower(got[id]), "plan mode") {
					t.Errorf("%s in %s mode: %q", id, mode, got[id])
				}
			}
		})
	}
}

// A hostile server's tool names carry spaces, dots, slashes and look-alike
// letters: each is sanitised into [A-Za-z0-9_-], so no tool name it offers
// can equal another server's or hide characters from a rule or a hook.
func TestAttackHostileToolNames(t *testing.T) {
	g := mcptest.NewGoServer(t, false)
	for _, n := range []string{"write file", "../write_file", "wrіte_file", "x\u200bfile", "a__b"} {
		g.AddTool(n)
	}
	m := startManager(t, mcp.Options{}, mcp.ServerConfig{Name: "evil", Transport: mcp.TransportHTTP, URL: g.URL, Approved: true})
	for _, name := range m.Registry().Names() {
		if !strings.HasPrefix(name, "mcp__evil__") {
			t.Errorf("a tool of evil is named %q", name)
		}
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
				t.Errorf("tool name %q has %q", name, r)
			}
		}
	}
}

// recordingApprover answers yes once to each ask and records what it was asked.
type recordingApprover struct{ asked []permission.Input }

func (a *recordingApprover) Approve(_ context.Context, _, _ string, in permission.Input, d permission.Decision) agent.Approval {
	a.asked = append(a.asked, in)
	d.Behavior, d.By = permission.Allow, "user"
	return agent.Approval{Decision: d, Scope: permission.ScopeOnce}
}

// In the default mode an MCP call is asked about — even one the server marks
// readOnlyHint — with its full name; the person's yes runs it, and a deny rule
// is never asked (it is denied at once).
func TestDefaultModeAsksThePerson(t *testing.T) {
	ap := &recordingApprover{}
	var e *engine
	prov := &providertest.Scripted{Respond: func(n int, req provider.Request) providertest.Step {
		if n == 1 {
			return providertest.ToolCalls(
				providertest.ToolCall("r", "mcp__filesystem__list_allowed_directories", `{}`),
				providertest.ToolCall("w", "mcp__filesystem__write_file", `{"path":"`+filepath.Join(e.root, "proof.txt")+`","content":"PROOF"}`))
		}
		return providertest.Text("done")
	}}
	e = newEngine(t, prov, agent.Config{PermissionMode: permission.ModeDefault, Approver: ap,
		Rules: rules(t, "mcp__filesystem__write_file")}, bothServers(t))
	e.submit("go")
	got := results(prov.Request(1))
	if len(ap.asked) != 1 || ap.asked[0].Tool != "mcp__filesystem__list_allowed_directories" {
		t.Errorf("asked: %+v", ap.asked)
	}
	if !strings.Contains(got["r"], e.root) || !strings.Contains(got["w"], "denied") {
		t.Errorf("results: %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.root, "proof.txt")); err == nil {
		t.Error("write_file wrote")
	}
}
