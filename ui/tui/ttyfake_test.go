package tui

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// ttyFake is a tcell.Tty for tcell's real terminfo screen: what the screen
// writes is kept (every byte it would send a terminal), input is fed by the
// test, and the window has a fixed size. Read blocks until input arrives or
// the screen drains or stops the tty (then it returns io.EOF, as a read
// deadline would on /dev/tty).
type ttyFake struct {
	mu      sync.Mutex
	out     bytes.Buffer
	writes  int       // Write calls (one per frame: tcell buffers a frame)
	lastOut time.Time // when the last Write came
	w, h    int

	in      chan []byte
	stopped chan struct{}
	stop    sync.Once
	pending []byte
}

func newTTYFake(w, h int) *ttyFake {
	return &ttyFake{w: w, h: h, in: make(chan []byte, 64), stopped: make(chan struct{})}
}

func (t *ttyFake) Start() error { return nil }

func (t *ttyFake) Stop() error {
	t.stop.Do(func() { close(t.stopped) })
	return nil
}

func (t *ttyFake) Drain() error { return t.Stop() }

func (t *ttyFake) NotifyResize(func()) {}

func (t *ttyFake) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}

func (t *ttyFake) Read(p []byte) (int, error) {
	if len(t.pending) == 0 {
		select {
		case b := <-t.in:
			t.pending = b
		case <-t.stopped:
			return 0, io.EOF
		}
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	return n, nil
}

func (t *ttyFake) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writes++
	t.lastOut = time.Now()
	return t.out.Write(p)
}

func (t *ttyFake) Close() error { return nil }

// bytes returns a copy of everything written so far.
func (t *ttyFake) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.out.Bytes())
}

// quiet waits until at least since bytes were written and then nothing more
// for 150 ms (the workbench's pending frames are drawn); it returns the
// output's length. 15 s at most: a wait, not a timing assertion.
func (t *ttyFake) quiet(tb testing.TB, since int) int {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		time.Sleep(20 * time.Millisecond)
		t.mu.Lock()
		n, last := t.out.Len(), t.lastOut
		t.mu.Unlock()
		if n > since && time.Since(last) > 150*time.Millisecond {
			return n
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the terminal output did not settle (%d bytes, waiting for more than %d)", n, since)
		}
	}
}

// newTTYScreen returns tcell's terminfo screen (TERM=xterm-256color, true
// colour) over a ttyFake of width×height, as openTerminal makes it.
func newTTYScreen(tb testing.TB, width, height int) (tcell.Screen, *ttyFake) {
	tb.Helper()
	return newTTYScreenFor(tb, "xterm-256color", width, height)
}

// newTTYScreenFor is newTTYScreen with TERM=term.
func newTTYScreenFor(tb testing.TB, term string, width, height int) (tcell.Screen, *ttyFake) {
	tb.Helper()
	tb.Setenv("TERM", term)
	tb.Setenv("COLORTERM", "truecolor")
	tty := newTTYFake(width, height)
	s, err := newTerminfoScreen(tty)
	if err != nil {
		tb.Fatal(err)
	}
	return s, tty
}
