package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"
)

//go:embed skill.md
var skillDescription string

// SkillInput is the input of the Skill tool, as Claude Code's.
type SkillInput struct {
	// Skill is the skill's name, without a leading slash.
	Skill string `json:"skill"`
	// Args are optional arguments, as typed after /NAME.
	Args string `json:"args,omitempty"`
}

const skillSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "skill": {"type": "string", "minLength": 1, "description": "The skill's name as the system prompt lists it, without a leading slash."},
    "args": {"type": "string", "description": "Optional arguments for the skill."}
  },
  "required": ["skill"],
  "additionalProperties": false
}`

// SkillLoader returns the text of a skill the model may load (name without
// the slash, args as typed): its base directory line and its instructions.
// An error (unknown name, a skill only a person may run) is the tool result.
type SkillLoader func(ctx context.Context, name, args string) (string, error)

// Skill is the Skill tool: the model loads a skill's instructions (core/skill
// expands them; core/app supplies Load). It reads nothing itself and grants
// nothing: a skill's allowed-tools apply only when a person runs /NAME.
type Skill struct {
	Load SkillLoader
}

// Spec describes the Skill tool: a read, safe to run in parallel.
func (s Skill) Spec() Spec {
	return Spec{Name: "Skill", Description: skillDescription, Schema: json.RawMessage(skillSchema),
		Kind: KindRead, ConcurrencySafe: true}
}

// Summary is "Skill NAME".
func (s Skill) Summary(in SkillInput) string { return "Skill " + strings.TrimPrefix(in.Skill, "/") }

// Run loads the skill.
func (s Skill) Run(ctx context.Context, _ *Env, in SkillInput) (Result, error) {
	if s.Load == nil {
		return Result{}, errors.New("no skills are available")
	}
	text, err := s.Load(ctx, strings.TrimPrefix(strings.TrimSpace(in.Skill), "/"), in.Args)
	if err != nil {
		return Result{Output: err.Error(), IsError: true}, nil
	}
	return Result{Output: text}, nil
}

var _ TypedSummarizer[SkillInput] = Skill{}
