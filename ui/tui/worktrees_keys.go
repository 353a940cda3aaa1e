package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/worktree"
)

// worktreesKey handles a key while the /worktrees view is open. With a
// question up: y (a keypress, after the question was on screen for
// approvalGrace) does it, anything else takes it back. Otherwise: the list
// keys select, m asks to merge, d to discard, r reloads, Esc, q or Ctrl+C
// close. Event loop only.
func (w *Workbench) worktreesKey(ev *tcell.EventKey) {
	fast := w.screen != nil && w.screen.fast.take(ev)
	if w.wt.confirm != "" {
		w.worktreesConfirmKey(ev, fast)
		return
	}
	plain := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyCtrlC, plain && ev.Rune() == 'q':
		w.wt.open = false
		return
	case plain && ev.Rune() == 'r':
		w.loadWorktrees()
		return
	case plain && (ev.Rune() == 'm' || ev.Rune() == 'd'):
		wt, ok := w.wt.selected()
		switch {
		case !ok:
		case w.wt.busy:
			w.hint("worktrees: still working on the last one")
		case ev.Rune() == 'm' && wt.Missing:
			w.hint("worktrees: " + wt.Name + "'s checkout is gone: d discards its record and branch")
		default:
			w.wt.confirm, w.wt.confirmName, w.wt.confirmAt, w.wt.confirmSig = map[rune]string{'m': "merge", 'd': "discard"}[ev.Rune()], wt.Name, time.Time{}, ""
		}
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	n := len(w.wt.list)
	switch act {
	case ActDown:
		w.wt.sel = min(w.wt.sel+1, max(n-1, 0))
	case ActUp:
		w.wt.sel = max(0, w.wt.sel-1)
	case ActPageDown, ActBottom:
		w.wt.sel = max(n-1, 0)
	case ActPageUp, ActTop:
		w.wt.sel = 0
	}
}

// worktreesConfirmKey answers the question.
func (w *Workbench) worktreesConfirmKey(ev *tcell.EventKey, fast bool) {
	action, name := w.wt.confirm, w.wt.confirmName
	yes := ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y') && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	switch {
	case !yes:
		w.wt.confirm = ""
		w.hint("worktrees: " + name + " left as it is")
		return
	case fast:
		w.hint("keys arriving as fast as a paste do not confirm: press y again")
		return
	case !answerable(w.wt.confirmAt, w.now()):
		w.hint("read the question first: press y again to " + action + " " + name)
		return
	}
	w.wt.confirm = ""
	wb, ok := w.be.(worktreeBackend)
	if !ok || w.be == nil || w.wt.busy {
		return
	}
	// Protected files are allowed only when the question showed them: a
	// merge that would bring some the list did not show is refused.
	allowProtected := false
	for _, info := range w.wt.list {
		if info.Name == name && len(info.Protected()) > 0 {
			allowProtected = true
		}
	}
	w.wt.busy = true
	go func() {
		var text, level string
		ctx := context.Background()
		if action == "merge" {
			res, err := wb.MergeWorktree(ctx, name, allowProtected)
			switch {
			case errors.Is(err, worktree.ErrDirty), errors.Is(err, worktree.ErrProtected), errors.Is(err, worktree.ErrConflict), errors.Is(err, worktree.ErrTampered):
				level, text = "warning", "worktrees: not merged: "+err.Error()
			case err != nil:
				level, text = "error", "worktrees: merging "+name+": "+err.Error()
			case res.UpToDate:
				level, text = "info", "worktrees: "+name+": the main checkout already has everything of its branch"
			default:
				into := res.Into
				if into == "" {
					into = "the detached HEAD"
				}
				level, text = "info", fmt.Sprintf("worktrees: merged %s into %s (%s): %s", name, into, short12(res.Commit), res.Stat)
			}
		} else {
			if err := wb.RemoveWorktree(ctx, name, true); err != nil {
				level, text = "error", "worktrees: discarding "+name+": "+err.Error()
			} else {
				level, text = "info", "worktrees: discarded "+name+" and its branch"
			}
		}
		w.pump.post(func() {
			w.wt.busy = false
			w.notice(level, text)
			if w.wt.open {
				w.loadWorktrees()
			}
		})
	}()
}
