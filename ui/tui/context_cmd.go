package tui

import (
	"fmt"

	"pincer/core/agent"
)

// slashContext is /context: how much of the model's window the live
// session's next call would use (Backend.EstimateContext; no model call), as
// `pincer run "/context"` shows it, on the notices line.
func (w *Workbench) slashContext([]string) bool {
	be, id := w.be, w.liveID
	if be == nil || id == "" {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return false
	}
	w.goBackground(func() {
		use, err := be.EstimateContext(w.ctx, id)
		if err != nil {
			w.Notify("error", "context: "+err.Error())
			return
		}
		w.Notify("info", contextText(use))
	})
	return true
}

// contextText is /context's line: "context ~12.3k of 128k tokens (9.6%): 14
// messages ~8.2k, 18 tool definitions ~4.1k", or with the window unknown
// "context ~12.3k tokens (window unknown: no automatic compaction; set
// context_window …): …" (new user r24: it did not say how to make it known).
func contextText(u agent.ContextUse) string {
	parts := fmt.Sprintf("%s ~%s", plural(u.Messages, "message"), humanTokens(u.Tokens-u.ToolTokens))
	if u.Tools > 0 {
		parts += fmt.Sprintf(", %s ~%s", plural(u.Tools, "tool definition"), humanTokens(u.ToolTokens))
	}
	if u.Window > 0 {
		return fmt.Sprintf("context ~%s of %s tokens (%.1f%%): %s", humanTokens(u.Tokens), humanTokens(u.Window),
			100*float64(u.Tokens)/float64(u.Window), parts)
	}
	return fmt.Sprintf("context ~%s tokens (window unknown: no automatic compaction; context_window in config.toml's [models.\"ID\"] sets it): %s", humanTokens(u.Tokens), parts)
}
