package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"pincer/core/agent"
	"pincer/core/config"
	"pincer/core/permission"
	"pincer/core/skill"
	"pincer/core/skill/learn"
	"pincer/core/smallfile"
)

// defaultSkillsPerSession is how many skills one session may propose unless
// [skills] learn_per_session says otherwise.
const defaultSkillsPerSession = 1

// skillDraftWait bounds the side call that drafts a skill: past it the
// deterministic draft is used.
const skillDraftWait = 90 * time.Second

// skillsFrom reads the user's [skills] table (core/config; a project's is a
// warning, never applied) into the report.
func skillsFrom(src *config.Sources, report *configReport) config.SkillsSettings {
	set, errs := src.Skills()
	report.add(errs)
	return set
}

// skillCandidates is what the learned-skill observer needs of the candidate
// queue (core/memory through skillQueue): propose one, count a session's
// skill candidates (any status: the rate limit), the names pending skill
// candidates hold, and the file a skill of a name and scope would be
// written to (the queue's one derivation of a target).
type skillCandidates interface {
	ProposeSkill(ctx context.Context, p skillProposal) (id string, err error)
	SessionSkills(ctx context.Context, sessionID string) (int, error)
	PendingSkillNames(ctx context.Context) (map[string]bool, error)
	SkillTarget(scope learn.Scope, name string) (string, error)
}

// skillProposal is one learned skill put before the person: the proposal's
// operation, name, description, the whole SKILL.md, its scope and source.
type skillProposal struct {
	Op          learn.Op
	Name        string
	Description string
	Text        string
	Scope       learn.Scope
	SessionID   string
	Turn        int
	TurnID      string
}

// skillObserver is the learned-skill observer (issue 16): after a turn that
// completed a multi-step task it drafts a SKILL.md from the trajectory and
// proposes it as a candidate; it never writes a file (an accepted candidate
// is written by core/memory, and discovered by the next session).
type skillObserver struct {
	set     config.SkillsSettings
	catalog *skill.Catalog // the session's, frozen: what names are taken
	queue   func() skillCandidates
	// root and home place a SKILL.md found at a target the catalog does
	// not list (accepted since this session's discovery): readPlace.
	root, home string
}

// ObserveTurn proposes at most one skill for a completed turn; every way it
// stops short is silent but a refused proposal (a notice).
func (o *skillObserver) ObserveTurn(ctx context.Context, ct agent.CompletedTurn) {
	if !o.set.Learn() {
		return
	}
	q := o.queue()
	if q == nil {
		return
	}
	tr := learn.Read(ct.Input, ct.Messages, ct.FinalText)
	if learn.Qualify(tr, learn.Turn{Subagent: ct.ParentID != "", Input: ct.Input}, o.set.MinSteps) != "" {
		return
	}
	limit := o.set.PerSession
	if limit <= 0 {
		limit = defaultSkillsPerSession
	}
	if n, err := q.SessionSkills(ctx, ct.SessionID); err != nil || n >= limit {
		return
	}
	d := o.draft(ctx, ct, tr)
	scope := learn.Scope(o.set.Scope)
	if scope == "" {
		scope = learn.ScopeProject
	}
	pending, err := q.PendingSkillNames(ctx)
	if err != nil {
		return
	}
	p, why := learn.Decide(d, learn.NameFrom(tr.Goal), o.takenBy(scope, pending, q), func(name string) (string, error) {
		return q.SkillTarget(scope, name)
	})
	if why != "" {
		ct.Notice("info", "skills", "no skill proposed for this turn: "+why)
		return
	}
	text, err := learn.Render(p.Draft, learn.Source{Session: ct.SessionID, Turn: ct.Number})
	if err == nil {
		_, err = q.ProposeSkill(ctx, skillProposal{Op: p.Op, Name: p.Draft.Name, Description: p.Draft.Description, Text: text,
			Scope: scope, SessionID: ct.SessionID, Turn: ct.Number, TurnID: ct.TurnID})
	}
	if err != nil {
		ct.Notice("warning", "skills", fmt.Sprintf("the skill /%s was not proposed: %v", p.Draft.Name, err))
		return
	}
	verb := "a new skill"
	if p.Op == learn.OpUpdate {
		verb = "an update of the skill"
	}
	ct.Notice("info", "skills", fmt.Sprintf("proposed %s /%s for your review (approve it to use it from the next session)", verb, p.Draft.Name))
}

// draft asks the model for the SKILL.md; its answer is checked
// (learn.ParseDraft) and, refused or failed, the deterministic draft is used.
func (o *skillObserver) draft(ctx context.Context, ct agent.CompletedTurn, tr learn.Trajectory) learn.Draft {
	if ct.Ask != nil {
		actx, cancel := context.WithTimeout(ctx, skillDraftWait)
		reply, err := ct.Ask(actx, learn.PromptSystem, learn.PromptUser(tr))
		cancel()
		if err == nil {
			d, perr := learn.ParseDraft(reply)
			if perr == nil {
				return d
			}
			err = perr
		}
		if ctx.Err() == nil {
			ct.Notice("info", "skills", "the model's skill draft was not used ("+err.Error()+"): drafting it from the turn's steps")
		}
	}
	return learn.Fallback(tr)
}

// takenBy is what holds a name: a skill or command of the session's
// catalog, a SKILL.md at the scope's target written since (accepted in
// another session), or a pending skill candidate.
func (o *skillObserver) takenBy(scope learn.Scope, pending map[string]bool, q skillCandidates) func(string) (learn.Taken, bool) {
	return func(name string) (learn.Taken, bool) {
		if sk, ok := o.catalog.Lookup(name); ok {
			return learn.Taken{File: sk.File, Learned: sk.Learned != nil}, true
		}
		if _, ok := o.catalog.Source(name); ok {
			return learn.Taken{}, true
		}
		if pending[name] {
			return learn.Taken{}, true
		}
		target, err := q.SkillTarget(scope, name)
		if err != nil {
			return learn.Taken{}, true
		}
		if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
			return learn.Taken{}, false
		}
		sk, err := skill.LoadSkill(o.readPlace(scope), filepath.Dir(target), skill.Origin(scope), "")
		if err != nil {
			return learn.Taken{File: target}, true
		}
		return learn.Taken{File: target, Learned: sk.Learned != nil}, true
	}
}

// readPlace is where a scope's skill files may lead when read (as
// skill.DirsFor's layers).
func (o *skillObserver) readPlace(scope learn.Scope) smallfile.Place {
	if scope == learn.ScopeUser || o.root == "" {
		return permission.UserFiles(o.home)
	}
	return permission.ProjectFiles(o.root, o.home)
}
