package tui

import "strings"

// promptHistory is the input box's prompt history, as Claude Code's: Up on
// the first line of the box recalls the previous prompt, Down on the last
// line the next one, and past the newest it gives back what was being typed
// before the first Up. It is plain data on the event loop; the prompts come
// from the store (Backend.PromptHistory) and each sent prompt is added.
type promptHistory struct {
	entries []string // newest first
	pos     int      // -1: not browsing; else the index of the entry shown
	typed   string   // the box's text before the first Up
}

// newPromptHistory returns an empty history, not browsing.
func newPromptHistory() promptHistory { return promptHistory{pos: -1} }

// load puts the stored prompts (newest first) behind the ones added since
// the workbench opened, dropping a stored one equal to the last added.
func (h *promptHistory) load(stored []string) {
	added := h.entries
	h.entries = append(append([]string(nil), added...), stored...)
	if n := len(added); n > 0 && len(stored) > 0 && added[n-1] == stored[0] {
		h.entries = append(h.entries[:n], h.entries[n+1:]...)
	}
}

// add records a sent prompt as the newest (a repeat of the newest is not
// kept twice) and ends browsing.
func (h *promptHistory) add(text string) {
	h.pos, h.typed = -1, ""
	if strings.TrimSpace(text) == "" || len(h.entries) > 0 && h.entries[0] == text {
		return
	}
	h.entries = append([]string{text}, h.entries...)
}

// older returns the entry before the one shown (current is the box's text,
// kept on the first step to come back to); ok is false at the oldest.
func (h *promptHistory) older(current string) (string, bool) {
	if h.pos+1 >= len(h.entries) {
		return "", false
	}
	if h.pos < 0 {
		h.typed = current
	}
	h.pos++
	return h.entries[h.pos], true
}

// newer returns the entry after the one shown, or what was typed before
// browsing once past the newest; ok is false when not browsing.
func (h *promptHistory) newer() (string, bool) {
	switch {
	case h.pos < 0:
		return "", false
	case h.pos == 0:
		h.pos = -1
		return h.typed, true
	}
	h.pos--
	return h.entries[h.pos], true
}

// onFirstLine and onLastLine report whether the cursor (a byte index into
// text) is on the box's first or last line: there Up and Down browse the
// history; elsewhere they move the cursor.
func onFirstLine(text string, cursor int) bool {
	return !strings.Contains(text[:min(cursor, len(text))], "\n")
}

func onLastLine(text string, cursor int) bool {
	return !strings.Contains(text[min(cursor, len(text)):], "\n")
}

// searchHistory finds the newest entry at index from or older that contains
// query (case-insensitive), as Ctrl+R's reverse search; -1 when none does.
func searchHistory(entries []string, query string, from int) int {
	q := strings.ToLower(query)
	for i := max(from, 0); i < len(entries); i++ {
		if strings.Contains(strings.ToLower(entries[i]), q) {
			return i
		}
	}
	return -1
}
