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
	mem "pincer/core/memory"
	"pincer/core/provider/providertest"
	"pincer/core/skill"
)

// memoryBench is a workbench attached to a session whose backend has a real
// memory Manager (config and data dirs of the test's own): what cmd_tui
// composes (Backend.Memory = Run.Memory).
func memoryBench(t *testing.T, width, height int) (*simBench, *agent.Agent, string, *mem.Manager) {
	t.Helper()
	return memoryBenchWith(t, width, height, nil)
}

// memoryBenchWith is memoryBench with setup run on the backend before the
// workbench attaches (a skill catalog, say).
func memoryBenchWith(t *testing.T, width, height int, setup func(be *app.Backend)) (*simBench, *agent.Agent, string, *mem.Manager) {
	t.Helper()
	b := startBench(t, width, height, Options{})
	ag, root := newTestAgent(t, &providertest.Scripted{})
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	be := backendOf(ag)
	be.Memory = &mem.Manager{Store: be.Store, ConfigDir: t.TempDir(), DataDir: t.TempDir(), Project: root, Log: ag.Log()}
	if setup != nil {
		setup(be)
	}
	b.w.Attach(be, s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	return b, ag, s.ID, be.Memory
}

// proposeTabs types /memory add for a feedback memory and waits until its
// candidate is in the queue with its diff; it returns the target file.
func proposeTabs(t *testing.T, b *simBench, m *mem.Manager) string {
	t.Helper()
	b.send("/memory add always use tabs and pnpm")
	b.waitText("3 Approvals (1)", "Memory: add feedback", "y accept · e edit · n reject")
	target := filepath.Join(m.Paths().ProjectDir, "always-use-tabs-and-pnpm.md")
	b.waitText("+type: feedback")
	var diff string
	b.onLoop(func() { diff = b.w.diffContent().Text })
	if !strings.Contains(diff, "+Always use tabs and pnpm.") || !strings.Contains(diff, "MEMORY.md: - [always use tabs and pnpm](always-use-tabs-and-pnpm.md)") {
		t.Fatalf("the diff pane shows:\n%s", diff)
	}
	return target
}

// decidedAs checks that the queue is empty and the history's one candidate
// was decided with outcome by by (detail: "edited").
func decidedAs(t *testing.T, b *simBench, outcome, by, detail string) {
	t.Helper()
	var got []ApprovalRecord
	var queued int
	b.onLoop(func() { got, queued = b.w.model.History, len(b.w.model.Approvals) })
	if queued != 0 || len(got) != 1 || got[0].Candidate == nil || got[0].Outcome != outcome || got[0].By != by || got[0].Detail != detail {
		t.Fatalf("queue %d, history %+v; want one candidate %s by %s (%q)", queued, got, outcome, by, detail)
	}
}

// pendingCandidates is the session's pending candidates in the store.
func pendingCandidates(t *testing.T, m *mem.Manager, sessionID string) []mem.Candidate {
	t.Helper()
	cs, err := m.Store.ListCandidates(context.Background(), mem.Filter{Status: mem.StatusPending, SessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestCandidateAcceptWritesMemory is issue 16's must-show in the workbench:
// /memory add puts a candidate in the approval queue (kind, type, name,
// target; the diff pane shows the file and the MEMORY.md line it would
// write), nothing is written before the answer, and y writes the feedback
// memory file and its index line; the row moves to the decided history.
func TestCandidateAcceptWritesMemory(t *testing.T) {
	b, _, sid, m := memoryBench(t, 160, 50)
	target := proposeTabs(t, b, m)
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("a file exists before any answer: %v", err)
	}
	b.afterReading("y")
	b.waitText("3 Approvals (0) · 1 decided")
	decidedAs(t, b, OutcomeAllow, "user", "")
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "type: feedback") || !strings.Contains(string(data), "Always use tabs and pnpm.") {
		t.Fatalf("memory file:\n%s", data)
	}
	index, err := os.ReadFile(filepath.Join(m.Paths().ProjectDir, mem.ProjectIndexName))
	if err != nil || !strings.Contains(string(index), "(always-use-tabs-and-pnpm.md)") {
		t.Fatalf("MEMORY.md (%v):\n%s", err, index)
	}
	if n := len(pendingCandidates(t, m, sid)); n != 0 {
		t.Fatalf("%d candidates still pending", n)
	}
}

// TestCandidateRejectWritesNothing: n rejects, no file and no index.
func TestCandidateRejectWritesNothing(t *testing.T) {
	b, _, _, m := memoryBench(t, 160, 50)
	target := proposeTabs(t, b, m)
	b.afterReading("n")
	b.waitText("3 Approvals (0) · 1 decided")
	decidedAs(t, b, OutcomeDeny, "user", "")
	for _, p := range []string{target, filepath.Join(m.Paths().ProjectDir, mem.ProjectIndexName)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s after a rejection: %v", p, err)
		}
	}
}

// TestCandidateEditThenAccept: e opens the editor on the candidate's text;
// what is typed there is what Ctrl+S writes; Esc first closes it with
// nothing written and the candidate still waiting.
func TestCandidateEditThenAccept(t *testing.T) {
	b, _, sid, m := memoryBench(t, 160, 50)
	target := proposeTabs(t, b, m)
	b.afterReading("e")
	b.waitText("Edit Memory: add feedback", "Ctrl+S saves · Esc cancels")
	b.key(tcell.KeyEscape, 0, tcell.ModNone)
	b.waitText("edit closed: nothing changed")
	if _, err := os.Stat(target); !os.IsNotExist(err) || len(pendingCandidates(t, m, sid)) != 1 {
		t.Fatalf("Esc wrote or decided: %v", err)
	}
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	b.afterReading("e")
	b.waitText("Ctrl+S saves · Esc cancels")
	b.typeText(" Lint with pnpm lint.")
	b.waitText("Lint with pnpm lint.", "type: feedback")
	b.key(tcell.KeyCtrlS, 0, tcell.ModNone)
	b.waitText("3 Approvals (0) · 1 decided")
	decidedAs(t, b, OutcomeAllow, "user", "edited")
	data, err := os.ReadFile(target)
	if err != nil || !strings.Contains(string(data), "Always use tabs and pnpm.\n Lint with pnpm lint.") {
		t.Fatalf("edited memory (%v):\n%s", err, data)
	}
}

// TestCandidateKeysWithinGraceDoNothing: a y pressed before the candidate
// was on screen for approvalGrace answers nothing (it is typing); y and e
// are letters of the box then.
func TestCandidateKeysWithinGraceDoNothing(t *testing.T) {
	b, _, sid, m := memoryBench(t, 160, 50)
	b.send("/memory add always use tabs and pnpm")
	b.waitText("3 Approvals (1)")
	b.typeText("y")
	b.waitText("║y")
	time.Sleep(approvalGrace + commitDelay + 100*time.Millisecond) // nothing held may commit later
	target := filepath.Join(m.Paths().ProjectDir, "always-use-tabs-and-pnpm.md")
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("an early y wrote the memory: %v", err)
	}
	if n := len(pendingCandidates(t, m, sid)); n != 1 {
		t.Fatalf("an early y decided: %d pending", n)
	}
}

// TestCandidateDecidedElsewhereLeavesQueue: a candidate decided through the
// Backend from outside (as `pincer memory reject` or another window does)
// leaves the queue when its candidate.decided reaches the log.
func TestCandidateDecidedElsewhereLeavesQueue(t *testing.T) {
	b, ag, sid, m := memoryBench(t, 160, 50)
	proposeTabs(t, b, m)
	cs := pendingCandidates(t, m, sid)
	if len(cs) != 1 {
		t.Fatalf("%d pending", len(cs))
	}
	if _, err := backendOf(ag).DecideCandidate(context.Background(), "", cs[0].ID, mem.Decision{Action: mem.Reject, By: "cli"}); err != nil {
		t.Fatal(err)
	}
	b.waitText("3 Approvals (0) · 1 decided")
	decidedAs(t, b, OutcomeDeny, "cli", "")
}

// catalogCommands is what Setup.Commands lists for a catalog discovered
// from the workspace, home and config dir as a session's Setup discovers
// it (frozen for the session).
func catalogCommands(cat *skill.Catalog) func() []app.Command {
	return func() []app.Command {
		var out []app.Command
		for _, e := range cat.Entries() {
			out = append(out, app.Command{Name: "/" + e.Name, Description: e.Description, Origin: string(e.Origin),
				Kind: string(e.Kind), Source: e.Learned.String()})
		}
		return out
	}
}

// TestSkillCandidateReachesNextSession: a learned skill's candidate (as the
// skill observer proposes it) waits in the queue with its SKILL.md; y writes
// it into the project's skills dir; the running session's catalog is frozen
// (/lint-fix stays unknown there, /skills does not list it) while a new
// session's catalog, discovered again, has /lint-fix with its description
// and its source.
func TestSkillCandidateReachesNextSession(t *testing.T) {
	home := t.TempDir()
	var root, configDir string
	b, _, sid, m := memoryBenchWith(t, 160, 50, func(be *app.Backend) {
		root, configDir = be.Memory.Project, be.Memory.ConfigDir
		be.ListCommands = catalogCommands(skill.Discover(skill.DirsFor(root, home, configDir)))
	})
	text := "---\nname: lint-fix\ndescription: Fix the lint errors with pnpm lint --fix\nsource:\n  session: " + sid + "\n  turn: 1\n---\n\nRun pnpm lint --fix, then pnpm test.\n"
	if _, err := m.Propose(context.Background(), mem.Proposal{Kind: mem.KindSkill, Scope: mem.ScopeProject, Name: "lint-fix",
		Description: "Fix the lint errors with pnpm lint --fix", Body: text, SessionID: sid, Turn: 1, Origin: mem.OriginSkillObserver}); err != nil {
		t.Fatal(err)
	}
	b.waitText("Skill: add “lint-fix” → lint-fix/SKILL.md", "y accept · e edit · n reject", "+Run pnpm lint --fix, then pnpm test.")
	target := filepath.Join(root, ".pincer", "skills", "lint-fix", "SKILL.md")
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("SKILL.md before the answer: %v", err)
	}
	b.afterReading("y")
	b.waitText("3 Approvals (0) · 1 decided")
	decidedAs(t, b, OutcomeAllow, "user", "")
	if data, err := os.ReadFile(target); err != nil || string(data) != text {
		t.Fatalf("SKILL.md (%v):\n%s", err, data)
	}
	b.send("/lint-fix")
	b.waitText("unknown command /lint-fix")
	b.send("/skills")
	s := b.waitText("Skills (0)", "No skills in this session's catalog.")
	if strings.Contains(s, "/lint-fix  (") {
		t.Errorf("the running session's /skills lists the new skill:\n%s", s)
	}
	next, ok := skill.Discover(skill.DirsFor(root, home, configDir)).Lookup("lint-fix")
	if !ok || next.Description != "Fix the lint errors with pnpm lint --fix" || next.Learned.String() == "" {
		t.Fatalf("the next session's catalog: %v %+v", ok, next)
	}
}

// TestCandidatesOfEarlierSessionsNoted: a candidate another session left
// pending (a headless run's) is not in this session's queue — it is in that
// session's log — and the workbench says at attach that it waits and where
// it is decided.
func TestCandidatesOfEarlierSessionsNoted(t *testing.T) {
	b, _, _, _ := memoryBenchWith(t, 160, 50, func(be *app.Backend) {
		earlier, err := be.Agent.CreateSession(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := be.ProposeMemory(context.Background(), earlier.ID, "we deploy on fridays"); err != nil {
			t.Fatal(err)
		}
	})
	b.waitText("1 memory or skill candidates of earlier sessions wait for review", "3 Approvals (0)")
}
