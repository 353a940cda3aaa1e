package memory

import (
	"context"
	"slices"

	"pincer/persist"
	"pincer/persist/internal/record"
)

// memPrompts holds the prompt history and drafts of every project; its zero
// value is ready to use. Guarded by Store.mu.
type memPrompts struct {
	history map[string][]string // per project, oldest first
	drafts  map[string]string
}

// AppendPrompt adds text as the project's newest prompt (persist.PromptStore).
func (s *Store) AppendPrompt(ctx context.Context, project, text string) error {
	if err := record.CheckProject(project); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if !record.KeepPrompt(text) {
		return nil
	}
	p := &s.prompts
	if p.history == nil {
		p.history = map[string][]string{}
	}
	h := p.history[project]
	if len(h) > 0 && h[len(h)-1] == text {
		return nil
	}
	h = append(h, text)
	if over := len(h) - persist.PromptHistoryLimit; over > 0 {
		h = slices.Delete(h, 0, over)
	}
	p.history[project] = h
	return nil
}

// ListPrompts returns up to limit of the project's prompts, newest first.
func (s *Store) ListPrompts(ctx context.Context, project string, limit int) ([]string, error) {
	if err := record.CheckProject(project); err != nil {
		return nil, err
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	h := s.prompts.history[project]
	out := make([]string, 0, len(h))
	for i := len(h) - 1; i >= 0 && (limit <= 0 || len(out) < limit); i-- {
		out = append(out, h[i])
	}
	return out, nil
}

// PutDraft keeps text as the project's draft; "" deletes it.
func (s *Store) PutDraft(ctx context.Context, project, text string) error {
	if err := record.CheckProject(project); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if text == "" {
		delete(s.prompts.drafts, project)
		return nil
	}
	if s.prompts.drafts == nil {
		s.prompts.drafts = map[string]string{}
	}
	s.prompts.drafts[project] = text
	return nil
}

// GetDraft returns the project's draft, "" when there is none.
func (s *Store) GetDraft(ctx context.Context, project string) (string, error) {
	if err := record.CheckProject(project); err != nil {
		return "", err
	}
	if err := s.lock(ctx); err != nil {
		return "", err
	}
	defer s.mu.Unlock()
	return s.prompts.drafts[project], nil
}
