//go:build unix

package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/themes"
)

// ttyBench is a workbench drawing on tcell's real terminfo screen over a
// ttyFake, attached to a session with history (perfAgent), so every byte
// the workbench would send a terminal is counted.
type ttyBench struct {
	*perfBench
	tty *ttyFake
	vt  *vtFake
	fed int // bytes of tty output fed to vt
}

// startTTYBench runs it on width×height with turns finished turns (as
// perfStart), the clock stopped (a running turn's clock does not tick), and
// waits until the output settles.
func startTTYBench(tb testing.TB, width, height, turns int) *ttyBench {
	tb.Helper()
	s, tty := newTTYScreen(tb, width, height)
	w, err := New(Options{Screen: s, Theme: themes.Dark(), Model: "fake/m", Mode: "default"})
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w.now = func() time.Time { return start }
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	tb.Cleanup(func() { w.Stop(); <-done })
	ag, sid := perfAgent(tb)
	p := &ttyBench{perfBench: &perfBench{w: w, ag: ag, sid: sid}, tty: tty, vt: newVTFake(width, height)}
	var md strings.Builder
	md.WriteString("## Step\n\n")
	for k := 0; k < 12; k++ {
		fmt.Fprintf(&md, "- item %d with **bold** and `code` text\n", k)
	}
	for i := 0; i < turns; i++ {
		t, call := fmt.Sprintf("t%d", i), fmt.Sprintf("c%d", i)
		p.emit(tb, event.TurnStarted, t, event.TurnStartedData{Input: "Please do step " + t})
		p.emit(tb, event.MessageCompleted, t, event.MessageCompletedData{MessageID: "a" + t, Role: "assistant", Text: md.String()})
		p.emit(tb, event.ToolStarted, t, event.ToolStartedData{ToolCallID: call, Name: "Bash", Input: `{"command":"go test"}`, Summary: "go test ./..."})
		p.emit(tb, event.ToolCompleted, t, event.ToolCompletedData{ToolCallID: call, Name: "Bash", Output: "ok pincer 0.1s\n", DurationMs: 1200})
		p.emit(tb, event.TurnCompleted, t, event.TurnCompletedData{StopReason: "end_turn"})
	}
	tty.quiet(tb, 0)
	w.Attach(backendOf(ag), sid)
	p.waitSeq(tb)
	p.feed(tty.quiet(tb, 0))
	return p
}

// waitSeq waits until the model has applied every logged event.
func (p *ttyBench) waitSeq(tb testing.TB) {
	tb.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var got uint64
		p.w.app.QueueUpdate(func() { got = p.w.model.LastSequence })
		if got >= p.seq {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the model reached sequence %d of %d", got, p.seq)
		}
	}
}

// feed hands the vt the output up to n bytes and returns the bytes and the
// cells printed since the last feed, not counting a cell printed over the
// same grapheme in the same pen (the frame writer moves the cursor over a
// cell or two that way: fewer bytes than CUF).
func (p *ttyBench) feed(n int) (bytes, cells int) {
	out := p.tty.bytes()[:n]
	printed, again := p.vt.printed, p.vt.again
	p.vt.feed(out[p.fed:])
	bytes, p.fed = n-p.fed, n
	return bytes, p.vt.printed - printed - (p.vt.again - again)
}

// step runs act and returns the bytes and cells sent to the terminal until
// the output settled again.
func (p *ttyBench) step(tb testing.TB, act func()) (bytes, cells int) {
	tb.Helper()
	before := len(p.tty.bytes())
	act()
	return p.feed(p.tty.quiet(tb, before))
}

// typeKey types one character as the terminal would send it.
func (p *ttyBench) typeKey(r rune) { p.tty.in <- []byte(string(r)) }

// TestTerminalOutputPerKeyAndDelta counts what the workbench sends the
// terminal (tcell's terminfo screen, xterm-256color, 120×40) for one typed
// character on the idle main screen and for one streamed message.delta: only
// the cells that changed (issue 19), not every non-blank cell of the screen.
func TestTerminalOutputPerKeyAndDelta(t *testing.T) {
	p := startTTYBench(t, 120, 40, 2)
	screen := strings.Join(p.vt.lines(), "\n")
	if !strings.Contains(screen, "Please do step t1") || !strings.Contains(screen, "item 11 with") {
		t.Fatalf("the history is not on the terminal:\n%s", screen)
	}
	// changes runs act and, for one frame's change (frames 1), fails unless
	// the cells sent are the cells that changed on the terminal (two more
	// allowed: tcell redraws the right neighbour of a wide character that
	// narrowed). A change of two events may be drawn in two frames, the
	// first's cells overwritten by the second's: only logged.
	changes := func(what, want string, frames int, act func()) (bytes, cells int) {
		t.Helper()
		before := p.vt.snapshot()
		bytes, cells = p.step(t, act)
		for deadline := time.Now().Add(15 * time.Second); !strings.Contains(strings.Join(p.vt.lines(), "\n"), want); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %q is not on the terminal:\n%s", what, want, strings.Join(p.vt.lines(), "\n"))
			}
			time.Sleep(20 * time.Millisecond)
			b, c := p.feed(p.tty.quiet(t, p.fed))
			bytes, cells = bytes+b, cells+c
		}
		changed := p.vt.changedSince(before)
		t.Logf("%s: %d bytes, %d cells sent, %d changed", what, bytes, cells, changed)
		if frames == 1 && cells > changed+2 {
			t.Errorf("%s sent %d cells; %d changed on the terminal", what, cells, changed)
		}
		return bytes, cells
	}
	// (A frame that comes late, under load, may fall into the next step: the
	// counts are logged, the cells sent checked against the cells changed.)
	changes("the first typed character (the placeholder goes)", "║x ", 1, func() { p.typeKey('x') })
	changes("one more typed character", "║xy ", 1, func() { p.typeKey('y') })
	if !strings.Contains(strings.Join(p.vt.lines(), "\n"), "xy") {
		t.Fatalf("the typed characters are not on the terminal:\n%s", strings.Join(p.vt.lines(), "\n"))
	}
	changes("a turn starts streaming", "Streaming", 2, func() {
		p.emit(t, event.TurnStarted, "live", event.TurnStartedData{Input: "stream"})
		p.emit(t, event.MessageDelta, "live", event.MessageDeltaData{MessageID: "m", Delta: "Streaming", Kind: "text"})
	})
	changes(`one streamed delta (" token", 6 cells)`, "Streaming token", 1, func() {
		p.emit(t, event.MessageDelta, "live", event.MessageDeltaData{MessageID: "m", Delta: " token", Kind: "text"})
	})
	if !strings.Contains(strings.Join(p.vt.lines(), "\n"), "Streaming token") {
		t.Fatalf("the delta is not on the terminal:\n%s", strings.Join(p.vt.lines(), "\n"))
	}
}

// BenchmarkTerminalOutput counts what the workbench sends the terminal
// (tcell's terminfo screen over a ttyFake, xterm-256color with true colour,
// 120×40, two finished turns on screen): bytes/op and cells/op (graphemes
// printed, blanks included, as a vt emulator reads them; not those printed
// over themselves to move the cursor).
//   - key: one typed character on the idle main screen, the input box
//     already holding text (the first character also clears the
//     placeholder: TestTerminalOutputPerKeyAndDelta logs that one).
//   - delta: one message.delta (" token", 6 cells) of a streaming answer
//     that fits the transcript pane (a new answer every 8 deltas, each a new
//     turn replacing the last, so the pane never scrolls).
//   - stream: one op is one second of a 1,000-deltas/s stream into a long
//     answer (it wraps and scrolls the pane, which re-sends the rows that
//     moved): cpu-ms/op is the process's CPU (1000 = a core), bytes/op what
//     the terminal got.
//
// ns/op includes waiting for the output to settle (150 ms): not a speed.
func BenchmarkTerminalOutput(b *testing.B) {
	b.Run("key", func(b *testing.B) {
		p := startTTYBench(b, 120, 40, 2)
		p.step(b, func() { p.typeKey('a') })
		var bytes, cells int
		for i := 0; b.Loop(); i++ {
			n, c := p.step(b, func() { p.typeKey(rune('b' + i%20)) })
			bytes, cells = bytes+n, cells+c
		}
		b.ReportMetric(float64(bytes)/float64(b.N), "bytes/op")
		b.ReportMetric(float64(cells)/float64(b.N), "cells/op")
	})
	b.Run("delta", func(b *testing.B) {
		p := startTTYBench(b, 120, 40, 2)
		var bytes, cells, n int
		for i := 0; b.Loop(); i++ {
			if i%8 == 0 {
				turn := fmt.Sprintf("live%d", i)
				p.step(b, func() {
					p.emit(b, event.TurnStarted, turn, event.TurnStartedData{Input: "stream"})
					p.emit(b, event.MessageDelta, turn, event.MessageDeltaData{MessageID: "m" + turn, Delta: "Streaming", Kind: "text"})
				})
			}
			turn := fmt.Sprintf("live%d", i-i%8)
			c, k := p.step(b, func() {
				p.emit(b, event.MessageDelta, turn, event.MessageDeltaData{MessageID: "m" + turn, Delta: " token", Kind: "text"})
			})
			bytes, cells, n = bytes+c, cells+k, n+1
			if i%8 == 7 {
				p.step(b, func() {
					p.emit(b, event.MessageCompleted, turn, event.MessageCompletedData{MessageID: "m" + turn, Role: "assistant", Text: "done"})
					p.emit(b, event.TurnCompleted, turn, event.TurnCompletedData{StopReason: "end_turn"})
				})
			}
		}
		b.ReportMetric(float64(bytes)/float64(n), "bytes/op")
		b.ReportMetric(float64(cells)/float64(n), "cells/op")
	})
	b.Run("stream", func(b *testing.B) {
		p := startTTYBench(b, 120, 40, 2)
		p.emit(b, event.TurnStarted, "live", event.TurnStartedData{Input: "stream"})
		p.feed(p.tty.quiet(b, len(p.tty.bytes())))
		out0, cpu0, ops := len(p.tty.bytes()), perfCPU(b), 0
		for b.Loop() {
			ops++
			msg, start := fmt.Sprintf("m%d", ops), time.Now()
			var text strings.Builder
			for i := 0; i < 1000; i++ {
				if d := time.Until(start.Add(time.Duration(i) * time.Millisecond)); d > 0 {
					time.Sleep(d)
				}
				d := " token"
				if i%40 == 39 {
					d = ".\n\nNext paragraph"
				}
				text.WriteString(d)
				p.emit(b, event.MessageDelta, "live", event.MessageDeltaData{MessageID: msg, Delta: d, Kind: "text"})
			}
			p.emit(b, event.MessageCompleted, "live", event.MessageCompletedData{MessageID: msg, Role: "assistant", Text: text.String()})
		}
		p.tty.quiet(b, out0)
		b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/float64(ops), "cpu-ms/op")
		b.ReportMetric(float64(len(p.tty.bytes())-out0)/float64(ops), "bytes/op")
	})
}
