package app

import "context"

// PromptHistory returns up to limit prompts typed in project (the workspace
// root), newest first (persist.PromptStore.ListPrompts).
func (b *Backend) PromptHistory(ctx context.Context, project string, limit int) ([]string, error) {
	return b.Store.ListPrompts(ctx, project, limit)
}

// AddPrompt keeps a prompt sent in project for recall (consecutive
// duplicates collapse; persist.PromptHistoryLimit are kept).
func (b *Backend) AddPrompt(ctx context.Context, project, text string) error {
	return b.Store.AppendPrompt(ctx, project, text)
}

// Draft returns project's unsent draft ("" when none).
func (b *Backend) Draft(ctx context.Context, project string) (string, error) {
	return b.Store.GetDraft(ctx, project)
}

// SaveDraft keeps text as project's unsent draft ("" deletes it).
func (b *Backend) SaveDraft(ctx context.Context, project, text string) error {
	return b.Store.PutDraft(ctx, project, text)
}
