package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// diffKeysApply reports whether w/h/l act on the diff pane from where the
// focus is: the Approvals pane (where a request puts it), the diff pane
// showing a diff. Not from the input box: there they are the first letter
// of a prompt ("why ...").
func (w *Workbench) diffKeysApply() bool {
	if w.reasonFor != "" || w.focus != paneApprovals {
		return false
	}
	return w.diff.content().Diff
}

// diffKeyFromQueue gives w/h/l (the diff pane's wrap toggle and sideways
// scroll, as bound in the key map) to the diff pane showing the request
// when diffKeysApply; it reports whether it used the key.
func (w *Workbench) diffKeyFromQueue(ev *tcell.EventKey) bool {
	if !w.diffKeysApply() {
		return false
	}
	act, ok := w.keys.Lookup([]Context{CtxDiff}, ev)
	if !ok || (act != ActWrap && act != ActLeft && act != ActRight) {
		return false
	}
	w.diff.scroll(act)
	return true
}

// diffBarKeys are the key bar's diff items while diffKeysApply ("w wrap",
// with wrapping off "h/l sideways"): after the approval keys, dropped before them.
func (w *Workbench) diffBarKeys() []string {
	if !w.diffKeysApply() {
		return nil
	}
	var out []string
	if k := w.keys.KeysOf(ActWrap); k != "" {
		out = append(out, firstKey(k)+" wrap")
	}
	if !w.diff.wrap {
		if h, l := w.keys.KeysOf(ActLeft), w.keys.KeysOf(ActRight); h != "" && l != "" {
			out = append(out, firstKey(h)+"/"+firstKey(l)+" sideways")
		}
	}
	return out
}

// firstKey is the first of a binding's keys ("h" of "h/Left").
func firstKey(keys string) string {
	k, _, _ := strings.Cut(keys, "/")
	return k
}
