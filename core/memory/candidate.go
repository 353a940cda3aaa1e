package memory

import (
	"context"

	"pincer/persist"
)

// Candidate is a proposed memory or skill file and its review (the store's
// record, persist.Candidate; this alias lets a front end name it without
// importing persist).
type Candidate = persist.Candidate

// Filter selects candidates (persist.CandidateFilter).
type Filter = persist.CandidateFilter

// The vocabulary of candidates, as persist defines it.
const (
	KindMemory = persist.CandidateMemory
	KindSkill  = persist.CandidateSkill

	OpAdd    = persist.CandidateAdd
	OpUpdate = persist.CandidateUpdate
	OpRemove = persist.CandidateRemove

	ScopeUser    = persist.CandidateUserScope
	ScopeProject = persist.CandidateProjectScope

	StatusPending  = persist.CandidatePending
	StatusAccepted = persist.CandidateAccepted
	StatusRejected = persist.CandidateRejected

	OriginRememberTool  = persist.OriginRememberTool
	OriginRequest       = persist.OriginRequest
	OriginSlash         = persist.OriginSlash
	OriginObserver      = persist.OriginObserver
	OriginSkillObserver = persist.OriginSkillObserver
)

// Memory types (a memory file's frontmatter type).
const (
	TypeUser      = "user"      // about the person: role, habits, expertise
	TypeFeedback  = "feedback"  // a correction or confirmation of how to work
	TypeProject   = "project"   // a project convention not derivable from the code
	TypeReference = "reference" // a pointer to an outside resource
)

// Types are the memory types, in the order they are documented.
var Types = []string{TypeUser, TypeFeedback, TypeProject, TypeReference}

// Action is a person's answer to a candidate.
type Action string

const (
	// Accept writes the candidate as proposed.
	Accept Action = "accept"
	// AcceptEdited writes Decision.Text instead of the proposed body.
	AcceptEdited Action = "accept-edited"
	// Reject writes nothing.
	Reject Action = "reject"
)

// Decision is a person's answer to one candidate: Action, the edited Text
// for AcceptEdited (for a memory the new body, or a whole file with its own
// frontmatter, whose name, type and description then must still be valid;
// for a skill the whole SKILL.md), a rejection's Reason, and By (who:
// "user" in a front end, "cli" on the command line; "" is "user").
type Decision struct {
	Action Action
	Text   string
	Reason string
	By     string
}

// Proposal is what a proposer hands Manager.Propose. Kind memory or skill;
// Op add (default), update or remove; Type one of Types (a memory; "" is
// project for scope project, user for scope user); Name the memory's or
// skill's name (letters, digits, spaces, '-', '_', '.'; at most MaxNameLen
// bytes); Description one line; Body the memory's text (for a skill, the
// whole SKILL.md with its frontmatter); Scope user or project ("" is
// project, or user for Type user); SessionID, Turn (from 1) and TurnID the
// source; Origin who proposes (OriginRememberTool, ...).
type Proposal struct {
	Kind        string
	Op          string
	Type        string
	Name        string
	Description string
	Body        string
	Scope       string
	SessionID   string
	Turn        int
	TurnID      string
	Origin      string
}

// Proposer is what the tools and observers that propose candidates need
// (the Remember tool, the memory and skill observers): a *Manager is one.
type Proposer interface {
	// Propose stores p as a pending candidate and returns it (never writes
	// a file); the error says what in p is invalid.
	Propose(ctx context.Context, p Proposal) (Candidate, error)
}
