package persist

import "context"

// PromptHistoryLimit is how many prompts a project's history keeps: appending
// one more drops the oldest.
const PromptHistoryLimit = 1000

// MaxPromptBytes is the longest prompt the history keeps; a longer one (a
// huge paste) is sent all the same but not kept for recall.
const MaxPromptBytes = 64 << 10

// PromptStore keeps what a person typed, per project (the workspace root, an
// absolute path): the prompt history the input box recalls with Up/Down and
// Ctrl+R (as Claude Code's), and the unsent draft the box had when the
// workbench closed. Project names are non-empty and contain no NUL byte;
// others are an error.
type PromptStore interface {
	// AppendPrompt adds text as the project's newest prompt. A prompt equal to
	// the newest one is not stored again (consecutive duplicates collapse, so
	// a retried append stores nothing twice), an empty or blank one and one
	// longer than MaxPromptBytes are not stored; past PromptHistoryLimit the
	// oldest are dropped.
	AppendPrompt(ctx context.Context, project, text string) error
	// ListPrompts returns up to limit of the project's prompts, newest first
	// (limit <= 0: all it keeps); none is an empty list.
	ListPrompts(ctx context.Context, project string, limit int) ([]string, error)
	// PutDraft keeps text as the project's unsent draft, replacing the one
	// before; "" deletes it.
	PutDraft(ctx context.Context, project, text string) error
	// GetDraft returns the project's draft, "" when there is none.
	GetDraft(ctx context.Context, project string) (string, error)
}
