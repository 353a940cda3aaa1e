package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/provider/providertest"
	"pincer/core/skill"
)

// attachedWithCatalog is attached with a Backend that knows a project skill
// /x and a command /frontend:lint, expanded by core/skill as core/app does.
func attachedWithCatalog(t *testing.T, prov *providertest.Scripted) *simBench {
	t.Helper()
	b := startBench(t, 160, 40, Options{})
	ag, _ := newTestAgent(t, prov)
	cat := skill.NewCatalog(
		skill.Skill{Name: "x", Description: "does x", ArgumentHint: "[focus]", Body: "X body $ARGUMENTS", Origin: skill.OriginProject, Kind: skill.KindSkill, UserInvocable: true},
		skill.Skill{Name: "frontend:lint", Description: "lint the frontend", Body: "Lint.", Origin: skill.PluginOrigin("web"), Kind: skill.KindCommand, UserInvocable: true},
	)
	be := backendOf(ag)
	be.ListCommands = func() []app.Command {
		var out []app.Command
		for _, e := range cat.Entries() {
			out = append(out, app.Command{Name: "/" + e.Name, Description: e.Description, ArgumentHint: e.ArgumentHint, Origin: string(e.Origin), Kind: string(e.Kind)})
		}
		return out
	}
	be.Invoke = func(line string) (agent.TurnInput, bool) {
		name, args, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "/"), " ")
		s, ok := cat.Lookup(name)
		if !ok {
			return agent.TurnInput{}, false
		}
		return agent.TurnInput{Text: line, Expand: func(ctx context.Context, run agent.PreTurn) (string, error) {
			e, err := skill.Expand(ctx, s, args, skill.GatherEnv{}, run)
			return e.Text, err
		}}, true
	}
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b
}

// TestCatalogCompletionAndRun: Tab completes a skill's name and shows its
// description and origin; sent, the line reaches the model expanded; /help
// lists the catalog; an unknown /name is still refused.
func TestCatalogCompletionAndRun(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("done")}}
	b := attachedWithCatalog(t, prov)
	b.typeText("/f")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitInput("/frontend:lint")
	b.waitText("/frontend:lint — lint the frontend (plugin:web)")
	b.w.pump.post(func() { b.w.input.SetText("", false) })
	b.waitInput("")
	b.typeText("/x")
	b.key(tcell.KeyTab, 0, tcell.ModNone)
	b.waitInput("/x ")
	b.waitText("/x [focus] — does x (project)")
	b.typeText("now")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	msgs := prov.Request(0).Messages
	if got := msgs[len(msgs)-1].Text(); got != "X body now" {
		t.Fatalf("the model got %q", got)
	}

	b.typeText("/nope")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("unknown command /nope — /help lists them")
	time.Sleep(5 * burstGap)
	if n := prov.Calls(); n != 1 {
		t.Fatalf("/nope reached the model (%d requests)", n)
	}
	b.w.pump.post(func() { b.w.input.SetText("", false) })
	b.waitInput("")
	b.typeText("/help")
	b.key(tcell.KeyEnter, 0, tcell.ModNone)
	b.waitText("Help — Esc, ? or F1 closes this screen")
	help := make(chan string, 1)
	b.w.pump.post(func() { help <- strings.Join(b.w.helpLines(), "\n") })
	got := <-help
	for _, w := range []string{"Skills and custom commands", "  /x [focus] — does x (project)", "  /frontend:lint — lint the frontend (plugin:web)"} {
		if !strings.Contains(got, w) {
			t.Errorf("help lacks %q:\n%s", w, got)
		}
	}
}

// TestCatalogBangCommandInWorkbench: a command's !`cmd` runs at the turn's
// start as a Bash call of the turn, shown in the transcript, its output in
// what the model gets; one that asks waits in the approval queue for y.
func TestCatalogBangCommandInWorkbench(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("done"), providertest.Text("done again")}}
	b := startBench(t, 160, 40, Options{})
	ag, root := newTestAgent(t, prov)
	cat := skill.NewCatalog(
		skill.Skill{Name: "st", Body: "Tree: !`echo bang-output`", Origin: skill.OriginProject, Kind: skill.KindCommand, UserInvocable: true},
		skill.Skill{Name: "mk", Body: "Made: !`touch made-by-bang && echo ok`", Origin: skill.OriginProject, Kind: skill.KindCommand, UserInvocable: true},
	)
	be := backendOf(ag)
	be.ListCommands = func() []app.Command {
		return []app.Command{{Name: "/st", Origin: "project"}, {Name: "/mk", Origin: "project"}}
	}
	be.Invoke = func(line string) (agent.TurnInput, bool) {
		s, ok := cat.Lookup(strings.TrimPrefix(strings.TrimSpace(line), "/"))
		if !ok {
			return agent.TurnInput{}, false
		}
		return agent.TurnInput{Text: line, Expand: func(ctx context.Context, run agent.PreTurn) (string, error) {
			e, err := skill.Expand(ctx, s, "", skill.GatherEnv{}, run)
			return e.Text, err
		}}, true
	}
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.send("/st")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	msgs := prov.Request(0).Messages
	if got := msgs[len(msgs)-1].Text(); got != "Tree: bang-output" {
		t.Fatalf("the model got %q", got)
	}
	b.waitText("echo bang-output")

	b.send("/mk")
	b.waitText("touch made-by-bang")
	time.Sleep(700 * time.Millisecond) // the approval's 400 ms on screen before a key answers it
	b.typeText("y")
	b.waitModel("the second turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted && prov.Calls() == 2 })
	if got := prov.Request(1).Messages; !strings.Contains(got[len(got)-1].Text(), "Made: ok") {
		t.Fatalf("the model got %q", got[len(got)-1].Text())
	}
	if _, err := os.Stat(filepath.Join(root, "made-by-bang")); err != nil {
		t.Fatalf("approved, but not run: %v", err)
	}
}
