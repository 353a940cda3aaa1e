package learn

import (
	"errors"
	"fmt"
	"strings"

	"pincer/core/frontmatter"
)

// PromptSystem is the side call's system message: it asks for one SKILL.md.
const PromptSystem = `You turn a coding agent's successful work into a reusable skill: a SKILL.md file in the Agent Skills format that tells an agent how to do this kind of task again.

Answer with the file only, no commentary, in this form:

---
name: NAME
description: ONE LINE
---
# Title

## Goal
## Steps
## Commands
## What to check

NAME: lower-case letters, digits and hyphens, a letter first, at most 64 characters, naming the kind of task (not this one instance).
ONE LINE: when to use the skill, in at most 200 characters; it is what the agent reads to decide to load it.
Write the steps that worked (leave out the dead ends), the exact commands in a sh code block, and how to check the result. Keep it general: paths and names of this instance only as examples. At most 150 lines.`

// maxPrompt caps the condensed trajectory sent to the model, in bytes.
const maxPrompt = 24 << 10

// PromptUser is the side call's user message: the trajectory condensed
// (the request, each step with its subject and the head of its output, the
// final answer), at most maxPrompt bytes. The text is the session's, which the
// person and the model already saw; nothing is read anew.
func PromptUser(tr Trajectory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The request:\n%s\n\nThe tool calls, in order:\n", quoted(cut(cleanText(tr.Goal), maxGoal)))
	for i, s := range tr.Steps {
		status := "ok"
		if !s.OK {
			status = "failed"
		}
		fmt.Fprintf(&b, "%d. %s [%s] %s\n", i+1, s.Tool, status, cleanLine(s.Subject, maxSubject))
		if out := cleanText(s.Output); out != "" {
			fmt.Fprintf(&b, "%s\n", quoted(cut(out, 300)))
		}
		if b.Len() > maxPrompt-2*maxCheck {
			fmt.Fprintf(&b, "… %d more calls\n", len(tr.Steps)-i-1)
			break
		}
	}
	fmt.Fprintf(&b, "\nThe final answer:\n%s\n", quoted(cut(cleanText(tr.Final), maxCheck)))
	return b.String()
}

// draftFields are the keys ParseDraft reads; any other key of the model's
// frontmatter is dropped (Render writes the frontmatter anew).
type draftFields struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

// ParseDraft reads the model's answer as a draft. The model is not trusted:
// the frontmatter must parse and give a ValidName and a description; the
// description is cleaned to one line (control and format characters
// dropped, MaxDescription runes); the body is cleaned text, not empty, at
// most MaxBody bytes. Keys other than name and description are ignored, so
// a draft grants nothing (no allowed-tools, no model). A reply wrapped in
// one code fence is unwrapped first. Errors say what was refused.
func ParseDraft(reply string) (Draft, error) {
	text := unfence(cleanText(reply))
	if !strings.HasPrefix(text, "---") {
		return Draft{}, errors.New("the draft has no frontmatter")
	}
	if len(text) > MaxBody+4<<10 {
		return Draft{}, fmt.Errorf("the draft is %d bytes, more than %d", len(text), MaxBody)
	}
	doc, err := frontmatter.ParseWith("draft SKILL.md", []byte(text), frontmatter.Options{TextKeys: []string{"description"}})
	if err != nil {
		return Draft{}, err
	}
	var f draftFields
	if err := doc.Decode(&f); err != nil {
		return Draft{}, err
	}
	d := Draft{Name: strings.TrimSpace(f.Name), Description: cleanLine(f.Description, MaxDescription),
		Body: strings.TrimSpace(doc.Body) + "\n", FromModel: true}
	if err := ValidName(d.Name); err != nil {
		return Draft{}, err
	}
	switch {
	case d.Description == "":
		return Draft{}, errors.New("the draft has no description")
	case strings.TrimSpace(d.Body) == "":
		return Draft{}, errors.New("the draft has no body")
	case len(d.Body) > MaxBody:
		return Draft{}, fmt.Errorf("the draft's body is %d bytes, more than %d", len(d.Body), MaxBody)
	}
	return d, nil
}

// unfence strips one code fence around the whole text (```markdown ... ```).
func unfence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	first, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return s
	}
	f := first[:len(first)-len(strings.TrimLeft(first, "`"))]
	body, ok := strings.CutSuffix(strings.TrimSpace(rest), f)
	if !ok {
		return s
	}
	return strings.TrimSpace(body)
}
