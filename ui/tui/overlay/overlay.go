// Package overlay is the workbench's modal prompt: one question of a /model
// flow (a line of text, a secret, yes/no, one of a list) drawn over the panes.
//
// The contract: a Prompt is opened by the flow's goroutine and answered on the
// event loop (the workbench keeps it in its UIState, touched there only); Key and Paste
// never block: the reply channel holds the one answer. The typed text of a
// secret lives only in the Prompt and in its reply; it is cleared when the
// prompt is answered, and only • is ever drawn for it.
package overlay

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/core/app"
	"pincer/ui/tui/internal/cells"
)

// Kind is what a prompt asks for.
type Kind int

// The kinds of question.
const (
	Ask     Kind = iota // a line of text, with a default
	Secret              // a line of text shown as •, never echoed
	Confirm             // y or n
	Choose              // one of a list
)

// Question is what a prompt asks.
type Question struct {
	Kind    Kind
	Text    string
	Default string   // Ask: the answer of an empty line
	Options []string // Choose: the choices
	// Selected is the index of the option Choose starts on (Enter takes it).
	Selected int
}

// Reply is a prompt's answer: Text (Ask, Secret), Index (Choose) or Yes
// (Confirm); Err is app.ErrCancelled when the person gave up.
type Reply struct {
	Text  string
	Index int
	Yes   bool
	Err   error
}

// Prompt is one open question.
type Prompt struct {
	q     Question
	text  []rune
	sel   int
	reply chan Reply // buffered (1): answering never blocks the event loop
}

// Open returns a prompt for q; its answer comes on Replies.
func Open(q Question) *Prompt {
	return &Prompt{q: q, sel: max(0, min(q.Selected, len(q.Options)-1)), reply: make(chan Reply, 1)}
}

// Replies is where the answer comes, once.
func (p *Prompt) Replies() <-chan Reply { return p.reply }

// answer closes the prompt with r and clears the typed text.
func (p *Prompt) answer(r Reply) {
	clear(p.text)
	p.text = p.text[:0]
	p.reply <- r
}

// Cancel answers app.ErrCancelled.
func (p *Prompt) Cancel() { p.answer(Reply{Err: app.ErrCancelled}) }

// Key handles one key and reports whether it answered the prompt (the caller
// then closes it). Esc and Ctrl+C cancel; Enter answers; Choose moves with
// j/k, arrows, g/G, Home/End and picks 1-9 directly; text kinds edit with
// Backspace and Ctrl+U.
func (p *Prompt) Key(ev *tcell.EventKey) bool {
	rune1 := func(rs ...rune) bool {
		if ev.Key() != tcell.KeyRune {
			return false
		}
		for _, r := range rs {
			if ev.Rune() == r {
				return true
			}
		}
		return false
	}
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		p.Cancel()
		return true
	}
	switch p.q.Kind {
	case Confirm:
		switch {
		case ev.Key() == tcell.KeyEnter, rune1('n', 'N'):
			p.answer(Reply{})
		case rune1('y', 'Y'):
			p.answer(Reply{Yes: true})
		default:
			return false
		}
		return true
	case Choose:
		n := len(p.q.Options)
		switch {
		case ev.Key() == tcell.KeyEnter:
			p.answer(Reply{Index: p.sel})
			return true
		case ev.Key() == tcell.KeyDown || rune1('j'):
			p.sel = min(p.sel+1, n-1)
		case ev.Key() == tcell.KeyUp || rune1('k'):
			p.sel = max(p.sel-1, 0)
		case ev.Key() == tcell.KeyHome || rune1('g'):
			p.sel = 0
		case ev.Key() == tcell.KeyEnd || rune1('G'):
			p.sel = n - 1
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && ev.Rune() <= '9' && int(ev.Rune()-'1') < n:
			p.answer(Reply{Index: int(ev.Rune() - '1')})
			return true
		}
		return false
	}
	switch ev.Key() { // a line of text
	case tcell.KeyEnter:
		text := strings.TrimSpace(string(p.text))
		if text == "" && p.q.Kind == Ask {
			text = p.q.Default
		}
		p.answer(Reply{Text: text})
		return true
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(p.text) > 0 {
			p.text[len(p.text)-1] = 0
			p.text = p.text[:len(p.text)-1]
		}
	case tcell.KeyCtrlU:
		clear(p.text)
		p.text = p.text[:0]
	case tcell.KeyRune:
		p.text = append(p.text, ev.Rune())
	}
	return false
}

// Paste puts pasted text (its first line) into a text prompt: API keys are
// usually pasted. Other kinds ignore it.
func (p *Prompt) Paste(text string) {
	if p.q.Kind == Ask || p.q.Kind == Secret {
		line, _, _ := strings.Cut(strings.TrimLeft(text, "\r\n"), "\n")
		p.text = append(p.text, []rune(strings.TrimRight(line, "\r"))...)
	}
}

// Draw draws the prompt in box, centred over the area (x, y, w, h): the
// question, then the input line (• for a secret), the y/n hint, or the
// options. style gives the theme's tokens (text, muted, accent).
func (p *Prompt) Draw(screen tcell.Screen, box *tview.Box, x, y, w, h int, style func(token string) tcell.Style) {
	width := min(w-2, 80)
	if width < 20 || h < 5 {
		return
	}
	lines := 1
	if p.q.Kind == Choose {
		lines = min(len(p.q.Options), max(h-6, 1))
	}
	height := min(lines+5, h)
	box.SetRect(x+(w-width)/2, y+max((h-height)/2, 0), width, height)
	box.Draw(screen)
	ix, iy, iw, ih := box.GetInnerRect()
	text, muted, accent := style("text"), style("muted"), style("accent")
	for row := 0; row < ih; row++ {
		cells.Fill(screen, ix, iy+row, iw, text)
	}
	cells.Print(screen, ix+1, iy, iw-2, p.q.Text, accent.Bold(true))
	var hint string
	switch p.q.Kind {
	case Ask, Secret:
		shown := string(p.text)
		if p.q.Kind == Secret {
			shown = strings.Repeat("•", len(p.text))
		}
		if n := cells.Width(shown); n > iw-4 { // keep the end in view
			shown = string([]rune(shown)[n-(iw-4):])
		}
		cells.Print(screen, ix+1, iy+2, iw-2, "> "+shown+"▏", text)
		hint = "Enter answers · Esc cancels (nothing is saved)"
		if p.q.Kind == Ask && p.q.Default != "" {
			cells.Print(screen, ix+1, iy+1, iw-2, "default: "+p.q.Default+" (Enter keeps it)", muted)
		}
	case Confirm:
		cells.Print(screen, ix+1, iy+2, iw-2, "[y/N]", text)
		hint = "y yes · n or Enter no · Esc cancels"
	case Choose:
		first := max(0, p.sel-lines+1)
		for i := 0; i < lines && first+i < len(p.q.Options); i++ {
			o := first + i
			st, mark := text, "  "
			if o == p.sel {
				st, mark = accent.Reverse(true), "> "
			}
			cells.Print(screen, ix+1, iy+2+i, iw-2, fmt.Sprintf("%s%d. %s", mark, o+1, p.q.Options[o]), st)
		}
		hint = "j/k move · Enter chooses · Esc cancels"
	}
	cells.Print(screen, ix+1, iy+ih-1, iw-2, hint, muted)
}
