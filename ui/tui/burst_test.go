package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// keysAt builds timed keys from a compact script: each rune is a key ('\n'
// Enter, '\t' Tab, '\x0a'... see below), arriving gaps[i] after the one
// before (the first at t0).
func keysAt(script string, gaps []time.Duration) []keyAt {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []keyAt
	at := t0
	for i, r := range script {
		if i > 0 {
			at = at.Add(gaps[min(i-1, len(gaps)-1)])
		}
		k := tcell.KeyRune
		switch r {
		case '\r':
			k = tcell.KeyEnter
		case '\n':
			k = tcell.KeyCtrlJ
		case '\t':
			k = tcell.KeyTab
		}
		out = append(out, keyAt{key: k, at: at})
	}
	return out
}

// TestFastRun: a burst is the keys each within burstGap of the one before.
func TestFastRun(t *testing.T) {
	us, ms := time.Microsecond, time.Millisecond
	cases := []struct {
		name   string
		script string
		gaps   []time.Duration
		want   int
	}{
		{"nothing", "", nil, 0},
		{"one key", "a", nil, 1},
		{"a paste", "ab\rcd", []time.Duration{20 * us}, 5},
		{"typed by a person", "ab\rcd", []time.Duration{120 * ms}, 1},
		{"pause inside", "ab\rcd", []time.Duration{us, us, 40 * ms, us}, 3},
		{"just under the gap", "ab", []time.Duration{burstGap - 1}, 2},
		{"at the gap", "ab", []time.Duration{burstGap}, 1},
	}
	for _, c := range cases {
		if got := fastRun(keysAt(c.script, c.gaps), burstGap); got != c.want {
			t.Errorf("%s: fastRun = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestBurstPaste decides which bursts are an unbracketed paste (their
// newlines kept) and where the paste ends.
func TestBurstPaste(t *testing.T) {
	cases := []struct {
		name   string
		script string
		want   int
	}{
		{"a word then Enter (send-keys text Enter)", "hello\r", 0},
		{"a single line", "hello", 0},
		{"two lines", "a\rb", 3},
		{"two lines ending in a newline: kept as text", "a\rb\r", 4},
		{"LF newlines", "a\nb\n", 4},
		{"ends in a tab", "a\rb\t", 3},
		{"tab inside", "a\tb\rc", 5},
		{"only Enter", "\r", 0},
		{"two Enters", "\r\r", 2},
		{"fifty lines", "l\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\rl\r", 100},
	}
	for _, c := range cases {
		if got := burstPaste(keysAt(c.script, []time.Duration{time.Microsecond})); got != c.want {
			t.Errorf("%s: burstPaste = %d, want %d", c.name, got, c.want)
		}
	}
}
