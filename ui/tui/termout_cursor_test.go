//go:build unix

package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
)

// inputCursor is where the workbench last put the cursor (the input box's,
// as tview's TextArea placed it) and whether that is inside the input box.
func (p *ttyBench) inputCursor() (x, y int, inBox bool) {
	s := p.w.send
	s.mu.Lock()
	x, y = s.curX, s.curY
	s.mu.Unlock()
	p.w.app.QueueUpdate(func() {
		bx, by, bw, bh := p.w.input.GetInnerRect()
		inBox = x >= bx && x < bx+bw && y >= by && y < by+bh
	})
	return x, y, inBox
}

// reversed reports whether the emulated terminal shows cell (x, y) in
// reverse video (the cell drawn as the cursor).
func (p *ttyBench) reversed(x, y int) bool {
	return strings.HasPrefix(p.vt.grid[y][x].pen, "7,") || strings.Contains(p.vt.grid[y][x].pen, ",7,")
}

// settleOn feeds the output until want is on the emulated terminal.
func (p *ttyBench) settleOn(tb testing.TB, want string) {
	tb.Helper()
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(strings.Join(p.vt.lines(), "\n"), want); {
		if time.Now().After(deadline) {
			tb.Fatalf("%q is not on the terminal:\n%s", want, strings.Join(p.vt.lines(), "\n"))
		}
		time.Sleep(20 * time.Millisecond)
		p.feed(p.tty.quiet(tb, p.fed))
	}
}

// sameAsFullRedraw has tcell repaint the whole terminal (Sync) onto a fresh
// emulated terminal and fails unless it shows what the incremental frames
// left on p.vt: every row's text and pens, the cursor shown or hidden and
// where.
func (p *ttyBench) sameAsFullRedraw(t *testing.T, when string) {
	t.Helper()
	before := len(p.tty.bytes())
	p.w.app.Sync()
	n := p.tty.quiet(t, before)
	full := newVTFake(p.vt.w, p.vt.h)
	full.feed(p.tty.bytes()[before:n])
	got, want := p.vt.lines(), full.lines()
	gotPens, wantPens := p.vt.pens(), full.pens()
	for y := range want {
		if got[y] != want[y] {
			t.Fatalf("%s: row %d shows %q, tcell's full redraw %q", when, y, got[y], want[y])
		}
		if gotPens[y] != wantPens[y] {
			t.Fatalf("%s: row %d %q has the pens %q, tcell's full redraw %q", when, y, got[y], gotPens[y], wantPens[y])
		}
	}
	if p.vt.hidden != full.hidden || !full.hidden && (p.vt.x != full.x || p.vt.y != full.y) {
		t.Fatalf("%s: the cursor is at %d,%d hidden %v; tcell's full redraw %d,%d hidden %v", when,
			p.vt.x, p.vt.y, p.vt.hidden, full.x, full.y, full.hidden)
	}
	p.feed(n)
}

// TestTerminalOutputDrawnCursorWhileStreaming: while a turn runs, the
// terminal's cursor is hidden and the input box's cursor is drawn as a
// reverse-video cell, so each streamed delta (the frame writer's cursor
// already just after the last one) is sent as its cells and at most a few
// bytes more (issue 19: a shown cursor cost a move there and one back, 19
// bytes for 6 cells); typing during the turn moves the drawn cell; when the
// turn ends the terminal's cursor is shown at the input position and the
// drawn cell is gone. After the stream and after the turn, the emulated
// terminal equals tcell's full redraw.
func TestTerminalOutputDrawnCursorWhileStreaming(t *testing.T) {
	p := startTTYBench(t, 120, 40, 2)
	x, y, inBox := p.inputCursor()
	if !inBox || p.vt.hidden || p.vt.x != x || p.vt.y != y {
		t.Fatalf("idle: the terminal's cursor is at %d,%d hidden %v; want shown at the input box's cursor %d,%d (in the box: %v)",
			p.vt.x, p.vt.y, p.vt.hidden, x, y, inBox)
	}
	p.step(t, func() {
		p.emit(t, event.TurnStarted, "live", event.TurnStartedData{Input: "stream"})
		p.emit(t, event.MessageDelta, "live", event.MessageDeltaData{MessageID: "m", Delta: "Streaming", Kind: "text"})
	})
	p.settleOn(t, "Streaming")
	text := "Streaming"
	const deltas = 8 // they fit the row: a delta that wraps moves to the next row (and may scroll the pane)
	var worst int
	for i := 0; i < deltas; i++ {
		d := fmt.Sprintf(" tok%02d", i)
		text += d
		bytes, cells := p.step(t, func() {
			p.emit(t, event.MessageDelta, "live", event.MessageDeltaData{MessageID: "m", Delta: d, Kind: "text"})
		})
		p.settleOn(t, text)
		t.Logf("delta %q: %d bytes, %d cells", d, bytes, cells)
		if cells > len(d) { // (its blank, printed over a blank that looks the same, is not counted)
			t.Errorf("delta %q: %d cells sent, more than its %d", d, cells, len(d))
		}
		if i > 0 { // the first moves from where the turn's start left the cursor (the status line) and states its pen
			worst = max(worst, bytes-len(d))
		}
		if !p.vt.hidden {
			t.Errorf("delta %q: the terminal's cursor is shown while the turn runs", d)
		}
		if cx, cy, _ := p.inputCursor(); cx != x || cy != y || !p.reversed(x, y) {
			t.Errorf("delta %q: the cursor is at %d,%d (reverse video on the terminal: %v); want drawn at %d,%d", d, cx, cy, p.reversed(x, y), x, y)
		}
	}
	const few = 4
	if worst > few {
		t.Errorf("a delta took %d bytes beyond its cells; want at most %d", worst, few)
	}
	p.sameAsFullRedraw(t, "streaming")

	p.step(t, func() { p.typeKey('q') })
	p.settleOn(t, "║q")
	nx, ny, _ := p.inputCursor()
	if nx != x+1 || ny != y || !p.reversed(nx, ny) || p.reversed(x, y) || !p.vt.hidden {
		t.Errorf("typed during the turn: the cursor is at %d,%d (drawn there: %v, still drawn at %d,%d: %v, terminal's hidden: %v); want drawn at %d,%d only",
			nx, ny, p.reversed(nx, ny), x, y, p.reversed(x, y), p.vt.hidden, x+1, y)
	}

	p.step(t, func() {
		p.emit(t, event.MessageCompleted, "live", event.MessageCompletedData{MessageID: "m", Role: "assistant", Text: text})
		p.emit(t, event.TurnCompleted, "live", event.TurnCompletedData{StopReason: "end_turn"})
	})
	for deadline := time.Now().Add(15 * time.Second); p.vt.hidden; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn ended; the terminal's cursor is still hidden")
		}
		p.feed(p.tty.quiet(t, p.fed))
	}
	if p.vt.x != nx || p.vt.y != ny || p.reversed(nx, ny) {
		t.Errorf("idle again: the terminal's cursor is at %d,%d, the cell at the input's cursor %d,%d in reverse video: %v; want the terminal's cursor there, no drawn cell",
			p.vt.x, p.vt.y, nx, ny, p.reversed(nx, ny))
	}
	p.sameAsFullRedraw(t, "idle again")
}
