package tui

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"pincer/core/app"
	"pincer/core/provider/providertest"
	"pincer/core/skill"
)

// TestClearSeesANewCommand: a command file written while the workbench runs
// is a /NAME of the session /clear makes (Backend.RescanCommands before
// NewSession), as Claude Code sees a new command without a restart (new user
// r18: it needed a restart).
func TestClearSeesANewCommand(t *testing.T) {
	prov := &providertest.Scripted{}
	b := startBench(t, 160, 40, Options{})
	ag, root := newTestAgent(t, prov)
	cat := skill.Discover(skill.DirsFor(root, t.TempDir(), t.TempDir()))
	be := backendOf(ag)
	be.ListCommands = func() []app.Command {
		var out []app.Command
		for _, e := range cat.Entries() {
			out = append(out, app.Command{Name: "/" + e.Name, Description: e.Description, Origin: string(e.Origin), Kind: string(e.Kind)})
		}
		return out
	}
	var rescans atomic.Int32
	be.RescanCommands = func() []string { cat.Rescan(); rescans.Add(1); return nil }
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")

	if err := os.MkdirAll(filepath.Join(root, ".claude/commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude/commands/release.md"), []byte("---\ndescription: cut a release\n---\nRelease.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	help := func() string {
		got := make(chan string, 1)
		b.w.pump.post(func() { got <- strings.Join(b.w.helpLines(), "\n") })
		return <-got
	}
	if strings.Contains(help(), "/release") {
		t.Fatal("the new command is listed before /clear")
	}
	b.send("/clear")
	b.waitFor("a rescan and a new session", func(screen string) bool {
		return rescans.Load() == 1 && !strings.Contains(screen, shortID(s.ID)+" · idle") && strings.Contains(screen, " · idle")
	})
	if h := help(); !strings.Contains(h, "/release — cut a release (project)") {
		t.Errorf("/help after /clear lacks the new command:\n%s", h)
	}
}
