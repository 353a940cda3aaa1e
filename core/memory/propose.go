package memory

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"pincer/core/event"
	"pincer/core/frontmatter"
	"pincer/persist"
)

// Propose stores p as a pending candidate (persist.Candidate) and emits
// candidate.proposed in its session; it never writes a file. The candidate's
// Content is the whole file to write (a memory rendered with its frontmatter;
// a skill's SKILL.md as given) and Target the path placeOf derives from its
// kind, scope and name. An add of a name that exists becomes an update; an
// update or removal of a name that does not exist is refused.
func (m *Manager) Propose(ctx context.Context, p Proposal) (Candidate, error) {
	c, err := m.candidateOf(p)
	if err != nil {
		return Candidate{}, err
	}
	for range 4 {
		c.ID = newID(c.Kind)
		var stored Candidate
		stored, err = m.Store.PutCandidate(ctx, c)
		if err == nil {
			m.emit(ctx, stored, event.CandidateProposed, proposedData(stored))
			return stored, nil
		}
		if !errors.Is(err, persist.ErrDuplicate) {
			break
		}
	}
	return Candidate{}, err
}

// candidateOf checks and normalises p into a candidate (no ID yet).
func (m *Manager) candidateOf(p Proposal) (Candidate, error) {
	if p.Kind == "" {
		p.Kind = KindMemory
	}
	if p.Op == "" {
		p.Op = OpAdd
	}
	if p.Kind == KindMemory && p.Type == "" {
		p.Type = TypeProject
		if p.Scope == ScopeUser {
			p.Type = TypeUser
		}
	}
	if p.Scope == "" {
		p.Scope = ScopeProject
		if p.Type == TypeUser {
			p.Scope = ScopeUser
		}
	}
	if p.Scope != ScopeUser && p.Scope != ScopeProject {
		return Candidate{}, fmt.Errorf("scope %q (user or project)", p.Scope)
	}
	if p.Op != OpAdd && p.Op != OpUpdate && p.Op != OpRemove {
		return Candidate{}, fmt.Errorf("op %q (add, update or remove)", p.Op)
	}
	pl, err := placeOf(m.Paths(), p.Kind, p.Scope, p.Name)
	if err != nil {
		return Candidate{}, err
	}
	c := Candidate{Kind: p.Kind, Op: p.Op, Name: p.Name, Target: pl.path(), Scope: p.Scope,
		Description: OneLine(p.Description, MaxDescriptionLen), SessionID: p.SessionID, Turn: p.Turn,
		TurnID: p.TurnID, Origin: p.Origin, Status: StatusPending}
	if p.Scope == ScopeProject {
		c.Project = m.Project
	}
	exists := fileExists(pl)
	switch {
	case c.Op == OpAdd && exists:
		c.Op = OpUpdate
	case c.Op != OpAdd && !exists:
		return Candidate{}, fmt.Errorf("no %s named %q to %s (%s)", p.Kind, p.Name, c.Op, c.Target)
	}
	if c.Op == OpRemove {
		return c, nil
	}
	if p.Kind == KindSkill {
		c.Content, c.Description, err = skillContent(p.Name, p.Body)
		return c, err
	}
	if err := checkType(p.Type); err != nil {
		return Candidate{}, err
	}
	c.Type = p.Type
	c.Content, err = m.memoryContent(c, p.Body)
	return c, err
}

// memoryContent renders a memory file of c with body.
func (m *Manager) memoryContent(c Candidate, body string) (string, error) {
	body = strings.TrimSpace(PlainText(body))
	if body == "" {
		return "", errNoBody
	}
	text, err := Render(File{Type: c.Type, Name: c.Name, Description: c.Description, Created: m.now(),
		Source: Source{Session: c.SessionID, Turn: c.Turn}, Body: body})
	if err == nil && len(text) > MaxContentBytes {
		err = fmt.Errorf("memory of %d bytes is over the %d-byte limit", len(text), MaxContentBytes)
	}
	return text, err
}

// skillContent checks a SKILL.md proposed for skill name: within the size
// limit, with frontmatter whose name is name and whose description is one
// non-empty line. It returns the text and the description.
func skillContent(name, text string) (string, string, error) {
	text = PlainText(text)
	if len(text) > MaxContentBytes {
		return "", "", fmt.Errorf("SKILL.md of %d bytes is over the %d-byte limit", len(text), MaxContentBytes)
	}
	doc, err := frontmatter.Parse(name+"/SKILL.md", []byte(text))
	if err != nil {
		return "", "", err
	}
	var f struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}
	if !doc.HasFrontmatter() {
		return "", "", errors.New("a SKILL.md opens with --- frontmatter (name, description)")
	}
	if err := doc.Decode(&f); err != nil {
		return "", "", err
	}
	switch {
	case f.Name != name:
		return "", "", fmt.Errorf("SKILL.md names %q, the candidate %q", f.Name, name)
	case strings.TrimSpace(f.Description) == "" || f.Description != OneLine(f.Description, MaxDescriptionLen):
		return "", "", fmt.Errorf("SKILL.md description must be one line of 1 to %d bytes", MaxDescriptionLen)
	case strings.TrimSpace(doc.Body) == "":
		return "", "", errors.New("SKILL.md has no instructions after its frontmatter")
	}
	return text, f.Description, nil
}

// fileExists reports whether pl's file exists (as anything: a symlink there
// is found when written, and refused).
func fileExists(pl place) bool {
	_, err := lstat(pl.path())
	return err == nil
}

// proposedData is the candidate.proposed payload of c.
func proposedData(c Candidate) event.CandidateProposedData {
	return event.CandidateProposedData{ID: c.ID, Kind: c.Kind, Op: c.Op, Type: c.Type, Name: c.Name,
		Description: c.Description, Content: c.Content, Target: c.Target, Scope: c.Scope, Origin: c.Origin, Turn: c.Turn}
}
