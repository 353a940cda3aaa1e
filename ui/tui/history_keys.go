package tui

import (
	"context"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// habitsTimeout bounds reading and writing the history and draft: a store
// that does not answer must not hold up opening or quitting.
const habitsTimeout = 3 * time.Second

// loadHabits reads the project's prompt history and draft from the store in
// the background and hands them to the event loop: the history goes behind
// the prompts sent meanwhile, the draft into the box if it is still empty.
// The project is Options.Cwd, the workspace root; without one nothing is read
// or kept.
func (w *Workbench) loadHabits(be Backend) {
	project := w.opts.Cwd
	if project == "" {
		return
	}
	w.goBackground(func() {
		ctx, cancel := context.WithTimeout(w.ctx, habitsTimeout)
		defer cancel()
		prompts, err := be.PromptHistory(ctx, project, 0)
		draft, derr := be.Draft(ctx, project)
		w.pump.post(func() {
			if err != nil || derr != nil {
				w.notice("warning", "prompt history: "+firstErr(err, derr).Error())
				return
			}
			w.in.project, w.in.habitsReady = project, true
			w.in.history.load(prompts)
			if draft != "" && w.input.GetText() == "" {
				w.input.SetText(draft, true)
			}
			w.in.draftStored = draft != ""
		})
	})
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// rememberPrompt adds a sent line (a prompt or a command) to the history and,
// in the background, to the store. The first send after a stored draft came
// back into the box deletes that draft from the store: it was used, and
// another workbench opened on the project must not get it again (new-user
// trial: it came back in every workbench until one quit with an empty box).
// Event loop only.
func (w *Workbench) rememberPrompt(text string) {
	w.in.history.add(text)
	be, project := w.be, w.opts.Cwd // the project is known before its history is read
	if be == nil || project == "" {
		return
	}
	clearDraft := w.in.draftStored
	w.in.draftStored = false
	w.goBackground(func() {
		ctx, cancel := context.WithTimeout(w.ctx, habitsTimeout)
		defer cancel()
		if err := be.AddPrompt(ctx, project, text); err != nil {
			w.Notify("warning", "prompt history: "+err.Error())
		}
		if clearDraft {
			if err := be.SaveDraft(ctx, project, ""); err != nil {
				w.Notify("warning", "draft: "+err.Error())
			}
		}
	})
}

// saveDraft keeps what the box holds (pastes whole) as the project's draft
// when the workbench ends, however it ends (Ctrl+C twice, /quit, a signal):
// Run calls it after the event loop has returned. An empty box deletes the
// draft; before the stored one was read nothing is written over it.
func (w *Workbench) saveDraft() {
	be, project := w.be, w.in.project
	if be == nil || project == "" || !w.in.habitsReady {
		return
	}
	text := w.expandPastes(w.input.GetText())
	if strings.TrimSpace(text) == "" {
		text = ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), habitsTimeout)
	defer cancel()
	_ = be.SaveDraft(ctx, project, text) // the workbench is gone: nowhere to show an error
}

// cursorIndex is the byte index of the input box's cursor.
func (w *Workbench) cursorIndex() int {
	_, start, _ := w.input.GetSelection()
	return start
}

// historyKey is Up (older) or Down (newer) in the input box: on the box's
// first (last) line it recalls a prompt, elsewhere the key moves the cursor
// (it is handed back). As Claude Code.
func (w *Workbench) historyKey(act Action, ev *tcell.EventKey) *tcell.EventKey {
	text := w.input.GetText()
	var recalled string
	var ok bool
	switch act {
	case ActHistoryPrev:
		if !onFirstLine(text, w.cursorIndex()) {
			return canonicalKey(ev, tcell.KeyUp)
		}
		recalled, ok = w.in.history.older(w.expandPastes(text))
	case ActHistoryNext:
		if !onLastLine(text, w.cursorIndex()) {
			return canonicalKey(ev, tcell.KeyDown)
		}
		recalled, ok = w.in.history.newer()
	}
	if ok {
		w.in.pastes = nil
		w.input.SetText(recalled, true)
	}
	return nil
}

// canonicalKey is the text area's own key for a rebound history key, so that
// off the first or last line it still moves the cursor.
func canonicalKey(ev *tcell.EventKey, k tcell.Key) *tcell.EventKey {
	if ev.Key() == k {
		return ev
	}
	return tcell.NewEventKey(k, 0, tcell.ModNone)
}

// historySearch is an open Ctrl+R search of the prompt history: what is
// typed filters (newest match first), Ctrl+R goes to the next older match,
// Enter takes the match into the box, Esc puts back what the box held.
type historySearch struct {
	query string
	match int    // index into the history's entries, -1: none
	saved string // the box's text before the search
}

// startSearch opens the Ctrl+R search.
func (w *Workbench) startSearch() {
	w.in.search = &historySearch{saved: w.expandPastes(w.input.GetText()), match: -1}
	w.in.pastes = nil
	w.searchShow()
}

// searchShow puts the current match (or, without one, the text from before)
// in the box.
func (w *Workbench) searchShow() {
	s := w.in.search
	if s.match >= 0 {
		w.input.SetText(w.in.history.entries[s.match], true)
		return
	}
	w.input.SetText(s.saved, true)
}

// searchKey handles a key while the search is open.
func (w *Workbench) searchKey(ev *tcell.EventKey) *tcell.EventKey {
	s := w.in.search
	entries := w.in.history.entries
	act, _ := w.keys.Lookup([]Context{CtxInput}, ev)
	switch {
	case ev.Key() == tcell.KeyEscape || ev.Key() == tcell.KeyCtrlC || ev.Key() == tcell.KeyCtrlG:
		w.in.search = nil
		w.input.SetText(s.saved, true)
	case ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyTab:
		w.in.search = nil // the match stays in the box, to edit or send
	case act == ActHistorySearch:
		if s.query != "" || s.match >= 0 {
			if m := searchHistory(entries, s.query, s.match+1); m >= 0 {
				s.match = m
			}
		}
		w.searchShow()
	case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2:
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
		}
		s.match = searchHistory(entries, s.query, 0)
		if s.query == "" {
			s.match = -1
		}
		w.searchShow()
	case ev.Key() == tcell.KeyRune:
		s.query += string(ev.Rune())
		s.match = searchHistory(entries, s.query, 0)
		w.searchShow()
	}
	return nil
}

// searchTitle is the input box's title while the search is open ("" when
// closed).
func (w *Workbench) searchTitle() string {
	s := w.in.search
	if s == nil {
		return ""
	}
	state := ""
	if s.match < 0 && s.query != "" {
		state = " · no match"
	}
	return " Search history: " + s.query + "▏" + state + " (Ctrl+R older · Enter takes · Esc cancels) "
}

// sendInitialPrompt sends Options.Prompt as the first turn, once: Attach
// calls it after posting the backend and the session, so the inbox runs it
// with both in place.
func (w *Workbench) sendInitialPrompt() {
	prompt := w.opts.Prompt
	if prompt == "" {
		return
	}
	w.pump.post(func() {
		if w.in.promptSent {
			return
		}
		w.in.promptSent = true
		w.submit(prompt)
	})
}
