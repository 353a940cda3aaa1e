package tui

import "strings"

// inputPlaceholder is the empty input box's hint, from the key map as it is
// (a rebound send or newline shows its own keys, never the defaults'):
// "Ask pincer…  (Enter sends, Shift+Enter or Alt+Enter adds a line)".
func (w *Workbench) inputPlaceholder() string {
	send := strings.Split(w.keys.KeysOf(ActSend), "/")[0]
	nl := strings.Split(w.keys.KeysOf(ActNewline), "/")
	var parts []string
	if send != "" {
		parts = append(parts, send+" sends")
	}
	if len(nl) > 0 && nl[0] != "" {
		parts = append(parts, strings.Join(nl[:min(len(nl), 2)], " or ")+" adds a line")
	}
	if len(parts) == 0 {
		return "Ask pincer…"
	}
	return "Ask pincer…  (" + strings.Join(parts, ", ") + ")"
}
