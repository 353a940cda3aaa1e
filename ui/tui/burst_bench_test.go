package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// BenchmarkUnbracketedPaste50Lines hands a 50-line unbracketed paste (its
// keys as a terminal delivers them, newlines as Enter) through the screen
// wrapper until the paste's end comes out: the cost of collecting and
// deciding a burst, plus the one burstGap wait after its last key.
func BenchmarkUnbracketedPaste50Lines(b *testing.B) {
	var text strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&text, "pasted line %02d of fifty, with some words\n", i)
	}
	src := chanScreen{ch: make(chan tcell.Event, 8192)}
	s := &pasteScreen{Screen: src}
	keys := 0
	for b.Loop() {
		for _, r := range strings.TrimSuffix(text.String(), "\n") {
			if r == '\n' {
				src.ch <- tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
			} else {
				src.ch <- tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)
			}
		}
		for {
			ev := s.PollEvent()
			if p, ok := ev.(*tcell.EventPaste); ok && p.End() {
				break
			}
			keys++
		}
	}
	b.ReportMetric(float64(keys)/float64(b.N), "events/op")
}

// BenchmarkBurstDecision is the pure decision over a 50-line burst's keys.
func BenchmarkBurstDecision(b *testing.B) {
	var script strings.Builder
	for i := 0; i < 50; i++ {
		script.WriteString("pasted line of fifty, with some words\r")
	}
	keys := keysAt(script.String(), []time.Duration{time.Microsecond})
	for b.Loop() {
		if n := burstPaste(keys[:fastRun(keys, burstGap)]); n == 0 {
			b.Fatal("not a paste")
		}
	}
}

// chanScreen is a screen whose events come from a channel.
type chanScreen struct {
	tcell.Screen
	ch chan tcell.Event
}

// PollEvent returns the next event sent on the channel.
func (c chanScreen) PollEvent() tcell.Event { return <-c.ch }
