// Package learn turns a turn that completed a multi-step task into a draft
// skill (a SKILL.md in the Agent Skills format) for a person to review: the
// observer's pure half. It reads a turn's trajectory (Read: the request, the
// tool calls that worked, the commands), decides whether the turn is worth a
// skill (Qualify), drafts one — from the model's own answer to Prompt, checked
// by ParseDraft, or deterministically (Fallback) — names it (ValidName,
// NameFrom, never a reserved or a taken name: Decide) and renders the file
// (Render) with a frontmatter pincer writes itself: name, description and
// source (session, turn), never a key that grants anything (no
// allowed-tools, no model).
//
// It writes nothing: a draft becomes a candidate in the approval queue
// (core/memory), and only an approved candidate is written, by core/memory's
// one writer, to the skills dir core/memory derives for its scope.
package learn

// Source is where a learned skill came from: the session and the turn (from
// 1) whose trajectory it was drafted from (a SKILL.md's `source:`
// frontmatter, read back as skill.Learned).
type Source struct {
	Session string
	Turn    int
}

// Draft is a proposed skill before it is rendered: Name (a ValidName),
// Description (one line, at most MaxDescription runes) and Body (the
// Markdown after the frontmatter, at most MaxBody bytes).
type Draft struct {
	Name        string
	Description string
	Body        string
	// FromModel is true when the model's side call wrote it, false for the
	// deterministic Fallback.
	FromModel bool
}

// Limits of a draft.
const (
	// MaxDescription caps a description in runes (the skill index's cap,
	// skill.MaxIndexDescription).
	MaxDescription = 250
	// MaxBody caps a draft's body in bytes: a larger model draft is refused
	// (the fallback is used), the fallback's parts are cut to fit.
	MaxBody = 16 << 10
)
