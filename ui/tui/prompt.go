package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
)

// promptKind is what a prompt overlay asks for.
type promptKind int

const (
	promptAsk     promptKind = iota // a line of text, with a default
	promptSecret                    // a line of text shown as •, never echoed
	promptConfirm                   // y or n
	promptChoose                    // one of a list
)

// promptReply is the answer a prompt overlay hands back to the flow waiting on it.
type promptReply struct {
	text  string
	index int
	yes   bool
	err   error // app.ErrCancelled on Esc, Ctrl+C or the workbench stopping
}

// promptState is the modal prompt overlay: one question of a /model flow. It is
// set by the flow's goroutine and answered on the event loop, both under the
// workbench mutex. The typed text of a secret lives only here and in the reply.
type promptState struct {
	kind     promptKind
	question string
	def      string
	options  []string
	text     []rune
	sel      int
	reply    chan promptReply // buffered (1): answering never blocks the event loop
}

// overlayPrompter is the workbench's app.Prompter: each question opens the
// prompt overlay and blocks the calling goroutine (never the event loop) until
// it is answered, cancelled, or the workbench stops.
type overlayPrompter struct{ w *Workbench }

// ask shows st and waits for its answer.
func (p overlayPrompter) ask(st *promptState) promptReply {
	w := p.w
	st.reply = make(chan promptReply, 1)
	w.mu.Lock()
	w.prompt = st
	w.mu.Unlock()
	w.pump.markDirty()
	select {
	case r := <-st.reply:
		return r
	case <-w.ctx.Done():
		w.mu.Lock()
		if w.prompt == st {
			w.prompt = nil
		}
		w.mu.Unlock()
		return promptReply{err: app.ErrCancelled}
	}
}

// Ask asks for a line; Enter on an empty line answers def.
func (p overlayPrompter) Ask(question, def string) (string, error) {
	r := p.ask(&promptState{kind: promptAsk, question: question, def: def})
	return r.text, r.err
}

// AskSecret asks for a line shown only as •.
func (p overlayPrompter) AskSecret(question string) (string, error) {
	r := p.ask(&promptState{kind: promptSecret, question: question})
	return r.text, r.err
}

// Confirm asks y/n; Enter alone is no.
func (p overlayPrompter) Confirm(question string) (bool, error) {
	r := p.ask(&promptState{kind: promptConfirm, question: question})
	return r.yes, r.err
}

// Choose asks for one of options (j/k or arrows, then Enter; 1-9 pick directly).
func (p overlayPrompter) Choose(question string, options []string) (int, error) {
	if len(options) == 0 {
		return 0, app.ErrCancelled
	}
	r := p.ask(&promptState{kind: promptChoose, question: question, options: options})
	return r.index, r.err
}

// promptOpen reports whether the prompt overlay is showing.
func (w *Workbench) promptOpen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.prompt != nil
}

// answerLocked closes the overlay with r. The caller holds the mutex.
func (w *Workbench) answerLocked(r promptReply) {
	st := w.prompt
	w.prompt = nil
	clear(st.text)
	st.reply <- r
}

// promptKey handles a key while the prompt overlay is open (event loop).
func (w *Workbench) promptKey(ev *tcell.EventKey) {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.prompt
	if st == nil {
		return
	}
	switch ev.Key() {
	case tcell.KeyEscape, tcell.KeyCtrlC:
		w.answerLocked(promptReply{err: app.ErrCancelled})
		return
	}
	switch st.kind {
	case promptConfirm:
		switch {
		case ev.Key() == tcell.KeyEnter:
			w.answerLocked(promptReply{})
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y'):
			w.answerLocked(promptReply{yes: true})
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'):
			w.answerLocked(promptReply{})
		}
	case promptChoose:
		n := len(st.options)
		switch {
		case ev.Key() == tcell.KeyEnter:
			w.answerLocked(promptReply{index: st.sel})
		case ev.Key() == tcell.KeyDown || ev.Key() == tcell.KeyRune && ev.Rune() == 'j':
			st.sel = min(st.sel+1, n-1)
		case ev.Key() == tcell.KeyUp || ev.Key() == tcell.KeyRune && ev.Rune() == 'k':
			st.sel = max(st.sel-1, 0)
		case ev.Key() == tcell.KeyHome || ev.Key() == tcell.KeyRune && ev.Rune() == 'g':
			st.sel = 0
		case ev.Key() == tcell.KeyEnd || ev.Key() == tcell.KeyRune && ev.Rune() == 'G':
			st.sel = n - 1
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && ev.Rune() <= '9' && int(ev.Rune()-'1') < n:
			w.answerLocked(promptReply{index: int(ev.Rune() - '1')})
		}
	default: // a line of text
		switch ev.Key() {
		case tcell.KeyEnter:
			text := strings.TrimSpace(string(st.text))
			if text == "" && st.kind == promptAsk {
				text = st.def
			}
			w.answerLocked(promptReply{text: text})
		case tcell.KeyBackspace, tcell.KeyBackspace2:
			if len(st.text) > 0 {
				st.text[len(st.text)-1] = 0
				st.text = st.text[:len(st.text)-1]
			}
		case tcell.KeyCtrlU:
			clear(st.text)
			st.text = st.text[:0]
		case tcell.KeyRune:
			st.text = append(st.text, ev.Rune())
		}
	}
}

// promptPaste puts pasted text (its first line) into a text prompt: API keys
// are usually pasted. It reports whether the overlay took it.
func (w *Workbench) promptPaste(text string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.prompt
	if st == nil {
		return false
	}
	if st.kind == promptAsk || st.kind == promptSecret {
		line, _, _ := strings.Cut(strings.TrimLeft(text, "\r\n"), "\n")
		st.text = append(st.text, []rune(strings.TrimRight(line, "\r"))...)
	}
	return true
}

// drawPromptLocked draws the prompt overlay centred over r: the question, then
// the input line (• for a secret), the y/n hint, or the options.
func (w *Workbench) drawPromptLocked(screen tcell.Screen, r rect) {
	st := w.prompt
	width := min(r.W-2, 80)
	if width < 20 || r.H < 5 {
		return
	}
	lines := 1
	if st.kind == promptChoose {
		lines = min(len(st.options), max(r.H-6, 1))
	}
	height := min(lines+5, r.H)
	x, y := r.X+(r.W-width)/2, r.Y+max((r.H-height)/2, 0)
	box := w.promptBox
	box.SetRect(x, y, width, height)
	box.Draw(screen)
	ix, iy, iw, ih := box.GetInnerRect()
	text, muted, accent := w.theme.Style("text"), w.theme.Style("muted"), w.theme.Style("accent")
	for row := 0; row < ih; row++ {
		fillRow(screen, ix, iy+row, iw, text)
	}
	printAt(screen, ix+1, iy, iw-2, st.question, accent.Bold(true))
	var hint string
	switch st.kind {
	case promptAsk, promptSecret:
		shown := string(st.text)
		if st.kind == promptSecret {
			shown = strings.Repeat("•", len(st.text))
		}
		if n := textWidth(shown); n > iw-4 { // keep the end in view
			shown = string([]rune(shown)[n-(iw-4):])
		}
		printAt(screen, ix+1, iy+2, iw-2, "> "+shown+"▏", text)
		hint = "Enter answers · Esc cancels (nothing is saved)"
		if st.kind == promptAsk && st.def != "" {
			printAt(screen, ix+1, iy+1, iw-2, "default: "+st.def+" (Enter keeps it)", muted)
		}
	case promptConfirm:
		printAt(screen, ix+1, iy+2, iw-2, "[y/N]", text)
		hint = "y yes · n or Enter no · Esc cancels"
	case promptChoose:
		first := max(0, st.sel-lines+1)
		for i := 0; i < lines && first+i < len(st.options); i++ {
			o := first + i
			style, mark := text, "  "
			if o == st.sel {
				style, mark = accent.Reverse(true), "> "
			}
			printAt(screen, ix+1, iy+2+i, iw-2, fmt.Sprintf("%s%d. %s", mark, o+1, st.options[o]), style)
		}
		hint = "j/k move · Enter chooses · Esc cancels"
	}
	printAt(screen, ix+1, iy+ih-1, iw-2, hint, muted)
}
