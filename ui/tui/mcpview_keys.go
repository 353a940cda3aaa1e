package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/mcp"
)

// mcpKey handles a key while the /mcp view is open. With an approval
// question up: y (a keypress, after the question was on screen for
// approvalGrace) approves, anything else takes the question back. Otherwise:
// the list keys select, a asks to approve the selected project server, Esc,
// q or Ctrl+C close. Event loop only.
func (w *Workbench) mcpKey(ev *tcell.EventKey) {
	fast := w.screen != nil && w.screen.fast.take(ev)
	if w.mcp.confirm != "" {
		w.mcpConfirmKey(ev, fast)
		return
	}
	switch {
	case ev.Key() == tcell.KeyEscape, ev.Key() == tcell.KeyCtrlC, ev.Key() == tcell.KeyRune && ev.Rune() == 'q':
		w.mcp.open = false
		return
	case ev.Key() == tcell.KeyRune && ev.Rune() == 'a' && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0:
		st, ok := w.mcp.selected()
		switch {
		case !ok:
		case st.Status != mcp.StatusNeedsApproval:
			w.hint("mcp: " + st.Config.Name + " needs no approval (" + string(st.Status) + ")")
		case w.be == nil:
			w.hint("the store is still opening: try again in a moment")
		default:
			w.mcp.confirm, w.mcp.confirmAt, w.mcp.confirmSig = st.Config.Name, time.Time{}, ""
		}
		return
	}
	act, _ := w.keys.Lookup([]Context{CtxList}, ev)
	n := len(w.mcp.servers)
	switch act {
	case ActDown:
		w.mcp.sel = min(w.mcp.sel+1, max(n-1, 0))
	case ActUp:
		w.mcp.sel = max(0, w.mcp.sel-1)
	case ActPageDown, ActBottom:
		w.mcp.sel = max(n-1, 0)
	case ActPageUp, ActTop:
		w.mcp.sel = 0
	}
}

// mcpConfirmKey answers the approval question.
func (w *Workbench) mcpConfirmKey(ev *tcell.EventKey, fast bool) {
	name := w.mcp.confirm
	yes := ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y') && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	switch {
	case !yes:
		w.mcp.confirm = ""
		w.hint("mcp: " + name + " not approved")
		return
	case fast:
		w.hint("keys arriving as fast as a paste do not approve: press y again")
		return
	case !answerable(w.mcp.confirmAt, w.now()):
		w.hint("read the command first: press y again to approve " + name)
		return
	}
	st, ok := w.mcp.servers[name]
	w.mcp.confirm = ""
	if !ok || st.Status != mcp.StatusNeedsApproval || w.be == nil || w.mcp.busy {
		return
	}
	be, cfg := w.be, st.Config
	w.mcp.busy = true
	go func() {
		err := be.ApproveMCP(cfg)
		w.pump.post(func() {
			w.mcp.busy = false
			if err != nil {
				w.notice("error", "mcp: approving "+cfg.Name+": "+err.Error())
				return
			}
			w.notice("info", "mcp: approved "+cfg.Name+" for this project; starting it ("+cfg.CommandLine()+")")
		})
	}()
}
