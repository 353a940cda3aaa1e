package tui

import (
	"github.com/gdamore/tcell/v2"

	"pincer/core/memory"
	"pincer/ui/termtext"
)

// memoryKey handles a key while /memory or /skills is open.
func (w *Workbench) memoryKey(ev *tcell.EventKey) {
	fast := w.screen != nil && w.screen.fast.take(ev)
	plain := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	if w.mem.confirm {
		w.memoryConfirmKey(plain && ev.Rune() == 'y', fast)
		return
	}
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyCtrlC, plain && ev.Rune() == 'q':
		w.mem.open = false
		return
	case plain && ev.Rune() == 'r':
		w.loadMemory()
		return
	case w.mem.skills:
		return
	case ev.Key() == tcell.KeyEnter, plain && ev.Rune() == 'e':
		w.editMemory()
		return
	case plain && ev.Rune() == 'd':
		if e, ok := w.selectedMemory(); ok {
			w.mem.confirm, w.mem.confirmName = true, e.Path
		}
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	n := len(w.mem.entries)
	switch act {
	case ActDown:
		w.mem.sel = min(w.mem.sel+1, max(n-1, 0))
	case ActUp:
		w.mem.sel = max(0, w.mem.sel-1)
	case ActPageDown, ActBottom:
		w.mem.sel = max(n-1, 0)
	case ActPageUp, ActTop:
		w.mem.sel = 0
	}
}

// selectedMemory is the selected memory, when it can be edited (it parsed).
func (w *Workbench) selectedMemory() (memory.Entry, bool) {
	if len(w.mem.entries) == 0 {
		return memory.Entry{}, false
	}
	e := w.mem.entries[max(0, min(w.mem.sel, len(w.mem.entries)-1))]
	if e.Err != nil {
		w.hint("memory: " + e.Path + " does not parse: fix it in an editor (" + e.Err.Error() + ")")
		return memory.Entry{}, false
	}
	return e, true
}

// editMemory opens the selected memory's text in the editor; Ctrl+S saves
// it through the Backend (an update candidate accepted at once).
func (w *Workbench) editMemory() {
	e, ok := w.selectedMemory()
	me, isEditor := w.be.(memoryEditor)
	if !ok || !isEditor {
		return
	}
	sessionID := w.liveID
	w.openEditor("Edit "+e.Scope+" memory “"+termtext.Line(e.File.Name)+"” — "+termtext.Line(e.Path), e.File.Body, func(text string) {
		if text == editorText(e.File.Body) && text == e.File.Body {
			w.hint("memory unchanged: nothing written")
			return
		}
		w.memoryChange(func() (memory.Candidate, error) { return me.EditMemory(w.ctx, sessionID, e, text) }, "saved memory “"+e.File.Name+"”")
	})
}

// memoryConfirmKey answers the deletion's question: only y pressed as a key
// (not in a burst) once the question was on screen for approvalGrace
// deletes; anything else takes it back.
func (w *Workbench) memoryConfirmKey(yes, fast bool) {
	e, ok := w.selectedMemory()
	switch {
	case !yes || !ok || e.Path != w.mem.confirmName:
		w.mem.confirm = false
		w.hint("memory left as it is")
		return
	case fast:
		w.hint("keys arriving as fast as a paste do not confirm: press y again")
		return
	case !answerable(w.mem.confirmAt, w.now()):
		w.hint("read the question first: press y again to delete it")
		return
	}
	w.mem.confirm = false
	me, isEditor := w.be.(memoryEditor)
	if !isEditor {
		return
	}
	sessionID := w.liveID
	w.memoryChange(func() (memory.Candidate, error) { return me.ForgetMemory(w.ctx, sessionID, e) }, "deleted memory “"+e.File.Name+"”")
}

// memoryChange runs change off the event loop, says how it went and reloads
// the view.
func (w *Workbench) memoryChange(change func() (memory.Candidate, error), done string) {
	w.goBackground(func() {
		if _, err := change(); err != nil {
			w.Notify("error", "memory: "+err.Error())
		} else {
			w.Notify("info", done)
		}
		w.pump.post(func() {
			if w.mem.open {
				w.loadMemory()
			}
		})
	})
}
