package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// burstGap is the longest pause between two keys of an unbracketed paste:
// a terminal (or tmux's plain paste-buffer) that does not bracket a paste
// delivers its characters within microseconds of each other, a person types
// them tens of milliseconds apart (key repeat: ~30 ms). The screen also waits
// this long after a key for the next one before it decides.
const burstGap = 15 * time.Millisecond

// keyAt is a key and when it arrived (tcell stamps each event as it parses
// the terminal's input).
type keyAt struct {
	key tcell.Key
	at  time.Time
}

// pasteable reports whether a key can be part of a pasted text: a character,
// a newline (Enter or Ctrl+J, LF) or a tab. Any other key ends a burst.
func pasteable(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyRune:
		return ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	case tcell.KeyEnter, tcell.KeyCtrlJ, tcell.KeyTab:
		return ev.Modifiers() == tcell.ModNone
	}
	return false
}

// fastRun returns how many keys of keys, from the first, arrived each within
// gap of the one before (the first within gap of prev, the arrival of the
// key before them; a zero prev never counts): the length of the burst they
// start, at least 1 when keys is not empty.
func fastRun(keys []keyAt, gap time.Duration) int {
	n := min(len(keys), 1)
	for n < len(keys) && keys[n].at.Sub(keys[n-1].at) < gap {
		n++
	}
	return n
}

// burstPaste decides whether a burst of pasteable keys (each within gap of
// the one before, as the screen collected them) is an unbracketed paste and
// how much of it: a burst with a newline that more keys follow is one, so its
// newlines stay newlines instead of sending each line (Found 10: 210 requests
// for one paste). Such a burst is the paste whole, a final newline included:
// a pasted text that ends in "\n" waits in the box for the person's Enter
// (issue 12 round 2: a 60-line paste went to the model unread). Only a final
// Tab stays the key pressed after the text. A burst without an inner newline
// (a word typed by a test, a single line, `tmux send-keys "text" Enter`) is
// delivered as keys, so its final Enter still sends. It returns how many
// keys, from the first, are the paste (0: none, deliver them as keys). As
// Claude Code, which treats fast input with newlines as a paste.
func burstPaste(keys []keyAt) int {
	inner := false
	for i := 0; i < len(keys)-1; i++ {
		if keys[i].key == tcell.KeyEnter || keys[i].key == tcell.KeyCtrlJ {
			inner = true
			break
		}
	}
	if !inner {
		return 0
	}
	if keys[len(keys)-1].key == tcell.KeyTab {
		return len(keys) - 1
	}
	return len(keys)
}
