package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/message"
	"pincer/core/skill"
	"pincer/core/skill/learn"
)

// fakeSkillQueue records proposals; a target is BASE/.pincer/skills/NAME/SKILL.md.
type fakeSkillQueue struct {
	root, home string
	proposed   []skillProposal
	count      int
	pending    map[string]bool
}

func (q *fakeSkillQueue) ProposeSkill(_ context.Context, p skillProposal) (string, error) {
	q.proposed = append(q.proposed, p)
	return fmt.Sprintf("skill-%d", len(q.proposed)), nil
}
func (q *fakeSkillQueue) SessionSkills(context.Context, string) (int, error) {
	return q.count + len(q.proposed), nil
}
func (q *fakeSkillQueue) PendingSkillNames(context.Context) (map[string]bool, error) {
	return q.pending, nil
}
func (q *fakeSkillQueue) SkillTarget(scope learn.Scope, name string) (string, error) {
	base := q.root
	if scope == learn.ScopeUser {
		base = q.home
	}
	return filepath.Join(base, ".pincer", "skills", name, "SKILL.md"), nil
}

// workedTurn is a completed turn of three tool calls that worked, whose
// side call answers reply (err: fails).
func workedTurn(request string, reply string, err error, asked *int) (agent.CompletedTurn, *[]string) {
	var notices []string
	msgs := []message.Message{message.NewText(message.RoleUser, request)}
	for i, c := range [][2]string{{"Read", `{"file_path":"lint.go"}`}, {"Edit", `{"file_path":"lint.go"}`}, {"Bash", `{"command":"go vet ./..."}`}} {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, message.Message{Role: message.RoleAssistant, TurnID: "turn-1", Parts: []message.Part{
			{Type: message.PartToolCall, ToolCallID: id, ToolName: c[0], Input: c[1]}}}, message.NewToolResult(id, c[0], "ok", false))
	}
	msgs = append(msgs, message.NewText(message.RoleAssistant, "fixed"))
	return agent.CompletedTurn{SessionID: "s-1", TurnID: "turn-1", Number: 2, Input: request, Messages: msgs, FinalText: "fixed",
		Ask: func(context.Context, string, string) (string, error) {
			*asked++
			return reply, err
		},
		Notice: func(level, source, msg string) { notices = append(notices, level+" "+source+": "+msg) }}, &notices
}

func newTestObserver(t *testing.T, set config.SkillsSettings, skills ...skill.Skill) (*skillObserver, *fakeSkillQueue) {
	t.Helper()
	q := &fakeSkillQueue{root: t.TempDir(), home: t.TempDir()}
	return &skillObserver{set: set, catalog: skill.NewCatalog(skills...), queue: func() skillCandidates { return q },
		root: q.root, home: q.home}, q
}

const goodDraft = "---\nname: lint-go\ndescription: Fix Go lint errors and check with go vet\n---\n# Lint Go\n\n## Steps\n1. go vet ./...\n"

// TestSkillObserverProposesTheModelsDraft: a multi-step turn that worked
// gets one proposal of the model's draft, rendered with pincer's frontmatter
// (source: the session and turn) under the project's skills dir; a second
// turn of the session proposes nothing (one per session by default).
func TestSkillObserverProposesTheModelsDraft(t *testing.T) {
	o, q := newTestObserver(t, config.SkillsSettings{MinSteps: 3})
	asked := 0
	ct, notices := workedTurn("fix the lint errors", goodDraft, nil, &asked)
	o.ObserveTurn(context.Background(), ct)
	if len(q.proposed) != 1 || asked != 1 {
		t.Fatalf("proposed %+v after %d side calls; notices %v", q.proposed, asked, *notices)
	}
	p := q.proposed[0]
	if p.Name != "lint-go" || p.Op != learn.OpAdd || p.Scope != learn.ScopeProject || p.SessionID != "s-1" || p.Turn != 2 || p.TurnID != "turn-1" {
		t.Errorf("proposal %+v", p)
	}
	if !strings.HasPrefix(p.Text, "---\nname: lint-go\ndescription: 'Fix Go lint errors and check with go vet'\nsource:\n  session: 's-1'\n  turn: 2\n---\n# Lint Go") {
		t.Errorf("text:\n%s", p.Text)
	}
	if !strings.Contains(strings.Join(*notices, "\n"), "proposed a new skill /lint-go") {
		t.Errorf("notices %v", *notices)
	}
	ct2, _ := workedTurn("fix the lint errors again", goodDraft, nil, &asked)
	o.ObserveTurn(context.Background(), ct2)
	if len(q.proposed) != 1 || asked != 1 {
		t.Errorf("a second proposal in the session: %+v (%d side calls)", q.proposed, asked)
	}
	noFileWritten(t, q.root, q.home)
}

// TestSkillObserverFallsBack: a failed side call or a refused draft is
// replaced by the deterministic draft named from the request.
func TestSkillObserverFallsBack(t *testing.T) {
	for _, c := range []struct {
		reply string
		err   error
	}{{"", errors.New("provider down")}, {"no frontmatter at all", nil}, {"---\nname: ../../.bashrc\ndescription: x\n---\nb\n", nil}} {
		o, q := newTestObserver(t, config.SkillsSettings{MinSteps: 3})
		asked := 0
		ct, notices := workedTurn("Fix the lint errors", c.reply, c.err, &asked)
		o.ObserveTurn(context.Background(), ct)
		if len(q.proposed) != 1 || q.proposed[0].Name != "fix-lint-errors" || !strings.Contains(q.proposed[0].Text, "## Steps that worked") {
			t.Fatalf("%q: proposed %+v", c.reply, q.proposed)
		}
		if !strings.Contains(strings.Join(*notices, "\n"), "drafting it from the turn's steps") {
			t.Errorf("notices %v", *notices)
		}
	}
}

// TestSkillObserverOff: [skills] learn = false, a turn that does not
// qualify, a session at its limit: no side call, no proposal.
func TestSkillObserverOff(t *testing.T) {
	off := false
	for name, c := range map[string]struct {
		set   config.SkillsSettings
		count int
		turn  func(*agent.CompletedTurn)
	}{
		"learn off":       {set: config.SkillsSettings{LearnSet: &off, MinSteps: 3}},
		"at the limit":    {set: config.SkillsSettings{MinSteps: 3}, count: 1},
		"limit of two":    {set: config.SkillsSettings{MinSteps: 3, PerSession: 2}, count: 2},
		"subagent":        {set: config.SkillsSettings{MinSteps: 3}, turn: func(ct *agent.CompletedTurn) { ct.ParentID = "s-parent" }},
		"more steps":      {set: config.SkillsSettings{MinSteps: 4}},
		"default minimum": {},
		"an invocation":   {set: config.SkillsSettings{MinSteps: 3}, turn: func(ct *agent.CompletedTurn) { ct.Input = "/lint-go" }},
	} {
		o, q := newTestObserver(t, c.set)
		q.count = c.count
		asked := 0
		ct, _ := workedTurn("fix the lint errors", goodDraft, nil, &asked)
		if c.turn != nil {
			c.turn(&ct)
		}
		o.ObserveTurn(context.Background(), ct)
		if len(q.proposed) != 0 || asked != 0 {
			t.Errorf("%s: proposed %+v after %d side calls", name, q.proposed, asked)
		}
	}
}

// TestAttackSkillObserverNeverShadows: a draft named as a built-in, a
// project skill, an MCP-less command or a pending candidate is proposed
// under the request's name instead, or not at all; a learned skill of the
// name at the target is proposed as an update.
func TestAttackSkillObserverNeverShadows(t *testing.T) {
	for _, c := range []struct {
		name     string
		draft    string
		held     []skill.Skill
		pending  map[string]bool
		want     string
		wantOp   learn.Op
		wantNone bool
	}{
		{name: "builtin", draft: strings.Replace(goodDraft, "lint-go", "commit", 1), want: "fix-lint-errors", wantOp: learn.OpAdd},
		{name: "project skill", held: []skill.Skill{{Name: "lint-go", File: "/w/.claude/skills/lint-go/SKILL.md", Kind: skill.KindSkill}},
			draft: goodDraft, want: "fix-lint-errors", wantOp: learn.OpAdd},
		{name: "command and pending", held: []skill.Skill{{Name: "lint-go", Kind: skill.KindCommand}},
			pending: map[string]bool{"fix-lint-errors": true}, draft: goodDraft, wantNone: true},
	} {
		o, q := newTestObserver(t, config.SkillsSettings{MinSteps: 3}, c.held...)
		q.pending = c.pending
		asked := 0
		ct, notices := workedTurn("Fix the lint errors", c.draft, nil, &asked)
		o.ObserveTurn(context.Background(), ct)
		if c.wantNone {
			if len(q.proposed) != 0 || !strings.Contains(strings.Join(*notices, "\n"), "is taken") {
				t.Errorf("%s: proposed %+v, notices %v", c.name, q.proposed, *notices)
			}
			continue
		}
		if len(q.proposed) != 1 || q.proposed[0].Name != c.want || q.proposed[0].Op != c.wantOp {
			t.Errorf("%s: proposed %+v", c.name, q.proposed)
		}
	}

	// A learned skill written at the target since the session started: an update.
	o, q := newTestObserver(t, config.SkillsSettings{MinSteps: 3})
	target, _ := q.SkillTarget(learn.ScopeProject, "lint-go")
	writeSkillFile(t, target, "---\nname: lint-go\ndescription: old\nsource:\n  session: s-0\n  turn: 1\n---\nold\n")
	asked := 0
	ct, _ := workedTurn("fix the lint errors", goodDraft, nil, &asked)
	o.ObserveTurn(context.Background(), ct)
	if len(q.proposed) != 1 || q.proposed[0].Op != learn.OpUpdate || q.proposed[0].Name != "lint-go" {
		t.Errorf("proposed %+v, want an update of the learned lint-go", q.proposed)
	}
	// A hand-written one there: not updated, the request's name instead.
	writeSkillFile(t, target, "---\nname: lint-go\ndescription: mine\n---\nmine\n")
	q.proposed = nil
	o.ObserveTurn(context.Background(), ct)
	if len(q.proposed) != 1 || q.proposed[0].Name != "fix-lint-errors" {
		t.Errorf("proposed %+v, want the request's name beside the hand-written lint-go", q.proposed)
	}
}

// noFileWritten fails when a SKILL.md appeared under any of dirs.
func noFileWritten(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				t.Errorf("a file was written without an approval: %s", p)
			}
			return nil
		})
	}
}
