package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
)

func TestPermissionLines(t *testing.T) {
	rs := permission.RuleSet{
		Allow: []permission.Rule{{Tool: "Bash", Specifier: "go test:*", Source: "user config"}, {Tool: "Read", Source: permission.SessionSource}},
		Deny:  []permission.Rule{{Tool: "WebFetch", Source: ".claude/settings.json", Project: true}},
	}
	got := strings.Join(permissionLines("acceptEdits", rs, []error{errors.New("session rule \"x\": bad")}), "\n")
	for _, want := range []string{"mode: acceptEdits", "  deny (1)", "    WebFetch    (.claude/settings.json, the repository's)",
		"  ask (0)\n    none", "  allow (2)", "    Bash(go test:*)    (user config)", "    Read    (this session)", "problem: session rule"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "deny (1)") > strings.Index(got, "allow (2)") {
		t.Errorf("deny is not listed before allow:\n%s", got)
	}
	// An "always" approval read back from its file after --continue is
	// in force twice, listed once (new user r24 #8).
	rs.Allow = append(rs.Allow, permission.Rule{Tool: "Bash", Specifier: "sleep 1", Source: ".pincer/settings.local.toml", Project: true},
		permission.Rule{Tool: "Bash", Specifier: "sleep 1", Source: permission.SessionSource})
	got = strings.Join(permissionLines("default", rs, nil), "\n")
	if strings.Count(got, "Bash(sleep 1)") != 1 || !strings.Contains(got, "Bash(sleep 1)    (.pincer/settings.local.toml, the repository's; also approved for this session)") || !strings.Contains(got, "allow (3)") {
		t.Errorf("the rule of the file and the session:\n%s", got)
	}
}

// TestSlashPermissions: /permissions deny RULE adds a session rule, the
// list shows it as this session's, remove takes it out, and a malformed
// line says the usage and keeps the line.
func TestSlashPermissions(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	ag, _ := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.slash("/permissions deny Bash(rm -rf:*)")
	b.waitText("added the deny rule Bash(rm -rf:*) for this session")
	b.slash("/permissions")
	b.waitText("Permissions — Esc closes", "deny (1)", "Bash(rm -rf:*)    (this session)", "mode: default")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("the list to close", func(s string) bool { return !strings.Contains(s, "Permissions — Esc closes") })
	b.slash("/permissions remove deny Bash(rm -rf:*)")
	b.waitText("removed the session's deny rule Bash(rm -rf:*)")
	rs, _ := backendOf(ag).PermissionRules(t.Context(), s.ID)
	if len(rs.Deny) != 0 {
		t.Fatalf("the rule stayed: %+v", rs)
	}
	b.slash("/permissions remove deny Bash(rm -rf:*)")
	b.waitText("the session holds no such rule")
	b.slash("/permissions always Read")
	b.waitText("usage: /permissions (list)")
}

// TestSlashStatusAndConfig: /status shows the session, mode, MCP count,
// sandbox and configuration files; /config lists the files with their state.
func TestSlashStatusAndConfig(t *testing.T) {
	b := startBench(t, 160, 50, Options{})
	ag, root := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PINCER_HOME", t.TempDir())
	be := backendOf(ag)
	be.Repo = root
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.slash("/status")
	b.waitText("Status — Esc closes", "session:    "+s.ID, "mode:       default", "0 of 0 servers ready", "sandbox:", "off: commands run without the OS sandbox",
		".pincer/config.toml", "absent")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitFor("status to close", func(s string) bool { return !strings.Contains(s, "Status — Esc closes") })
	b.slash("/config")
	b.waitText("Configuration files — Esc closes", ".claude/settings.json", "/update-config REQUEST")
}
