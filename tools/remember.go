package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

//go:embed remember.md
var rememberDescription string

// RememberInput is the input of the Remember tool: a memory proposed as
// core/memory's Proposal takes it (Type user | feedback | project |
// reference, Name, Description one line, Content the body, Scope user |
// project), or with Op "remove" the removal of the memory Name.
type RememberInput struct {
	Op          string `json:"op,omitempty"`
	Type        string `json:"type,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Content     string `json:"content,omitempty"`
	Scope       string `json:"scope,omitempty"`
}

const rememberSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "op": {"type": "string", "enum": ["add", "remove"], "description": "add (the default) proposes a memory; remove proposes forgetting the memory named."},
    "type": {"type": "string", "enum": ["user", "feedback", "project", "reference"], "description": "What the memory is: about the person, a correction or way of working, a project fact, a pointer outside."},
    "name": {"type": "string", "minLength": 1, "maxLength": 64, "description": "A short title: letters, digits, spaces, '-', '_', '.'."},
    "description": {"type": "string", "maxLength": 300, "description": "One line saying what the memory is about (its index line)."},
    "content": {"type": "string", "description": "The memory itself, in Markdown (add only)."},
    "scope": {"type": "string", "enum": ["user", "project"], "description": "user: about the person, across projects; project (the default): this project."}
  },
  "required": ["name"],
  "additionalProperties": false
}`

// RememberProposer stores a Remember call's input as a pending candidate of
// the session (and turn) that made it and returns the candidate's id and
// the file it would write once a person accepts it. Its error (a bad name,
// the session's limit reached) is the model's to read.
type RememberProposer func(ctx context.Context, sessionID, turnID string, in RememberInput) (id, target string, err error)

// Remember is the Remember tool (issue 16): the model proposes a memory, or
// its removal, as a candidate a person reviews; it writes no file (core/app
// supplies Propose, core/memory checks and stores the candidate). A refusal
// is a tool result the model reads, never a failure of the turn.
type Remember struct {
	Propose RememberProposer
}

// Spec describes the Remember tool: it reads nothing and changes no file
// (a candidate in the store, as TodoWrite's list), so KindRead; calls run in
// order.
func (r Remember) Spec() Spec {
	return Spec{Name: "Remember", Description: rememberDescription, Schema: json.RawMessage(rememberSchema), Kind: KindRead}
}

// Summary is "Remember NAME" or "Remember: forget NAME".
func (r Remember) Summary(in RememberInput) string {
	if in.Op == "remove" {
		return "Remember: forget " + in.Name
	}
	return "Remember " + in.Name
}

// Run checks the input's shape and proposes it.
func (r Remember) Run(ctx context.Context, env *Env, in RememberInput) (Result, error) {
	if r.Propose == nil {
		return Result{}, errors.New("memory is not available")
	}
	if err := checkRemember(in); err != nil {
		return Result{Output: "Not proposed: " + err.Error(), IsError: true}, nil
	}
	var sessionID, turnID string
	if env != nil {
		sessionID, turnID = env.SessionID, env.TurnID
	}
	id, target, err := r.Propose(ctx, sessionID, turnID, in)
	if err != nil {
		return Result{Output: "Not proposed: " + err.Error(), IsError: true}, nil
	}
	what := fmt.Sprintf("The memory %q", in.Name)
	if in.Op == "remove" {
		what = fmt.Sprintf("Forgetting the memory %q", in.Name)
	}
	return Result{Output: fmt.Sprintf("%s awaits the person's review as candidate %s (nothing is written until they accept it; "+
		"accepted, it is written to %s and applies from the next session).", what, id, target)}, nil
}

// checkRemember refuses an input the schema lets through but no proposal
// can be: an add without type or content, a removal with content.
func checkRemember(in RememberInput) error {
	switch in.Op {
	case "", "add":
		if in.Type == "" {
			return errors.New("give the memory's type (user, feedback, project or reference)")
		}
		if strings.TrimSpace(in.Content) == "" {
			return errors.New("give the memory's content")
		}
	case "remove":
		if in.Content != "" || in.Description != "" || in.Type != "" {
			return errors.New("a removal gives only the name (and scope) of the memory to forget")
		}
	default:
		return fmt.Errorf("op %q (add or remove)", in.Op)
	}
	return nil
}

var _ TypedSummarizer[RememberInput] = Remember{}
