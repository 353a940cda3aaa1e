package remote

import (
	"context"
)

// The prompt history and drafts over the wire (persist.PromptStore): the
// Client's methods and the Server's handlers. AppendPrompt needs no retry
// handling of its own: the store collapses a prompt equal to the newest, so a
// retried append stores nothing twice.

// AppendPrompt adds text as the project's newest prompt.
func (c *Client) AppendPrompt(ctx context.Context, project, text string) error {
	return c.call(ctx, "AppendPrompt", &wireArgs{Project: project, Text: text}, nil)
}

// ListPrompts returns up to limit of the project's prompts, newest first.
func (c *Client) ListPrompts(ctx context.Context, project string, limit int) ([]string, error) {
	out := []string{}
	err := c.call(ctx, "ListPrompts", &wireArgs{Project: project, Limit: limit}, &out)
	if out == nil {
		out = []string{}
	}
	return out, err
}

// PutDraft keeps text as the project's draft; "" deletes it.
func (c *Client) PutDraft(ctx context.Context, project, text string) error {
	return c.call(ctx, "PutDraft", &wireArgs{Project: project, Text: text}, nil)
}

// GetDraft returns the project's draft, "" when there is none.
func (c *Client) GetDraft(ctx context.Context, project string) (string, error) {
	var out string
	err := c.call(ctx, "GetDraft", &wireArgs{Project: project}, &out)
	return out, err
}

func (s *Server) appendPrompt(ctx context.Context, r request) (any, error) {
	return nil, s.store.AppendPrompt(ctx, r.args.Project, r.args.Text)
}

func (s *Server) listPrompts(ctx context.Context, r request) (any, error) {
	return s.store.ListPrompts(ctx, r.args.Project, r.args.Limit)
}

func (s *Server) putDraft(ctx context.Context, r request) (any, error) {
	return nil, s.store.PutDraft(ctx, r.args.Project, r.args.Text)
}

func (s *Server) getDraft(ctx context.Context, r request) (any, error) {
	return s.store.GetDraft(ctx, r.args.Project)
}
