package transcript

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// wheelRows is how many rows one mouse wheel step scrolls.
const wheelRows = 3

// InputHandler handles keys when the view has focus: j/k and the arrows
// move the selection between blocks, g/G and Home/End jump to the first
// block / the end (G and End turn follow on), PgUp/PgDn scroll a page,
// Enter and space collapse or expand the selected block.
func (v *View) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return v.WrapInputHandler(func(event *tcell.EventKey, _ func(p tview.Primitive)) {
		v.mu.Lock()
		defer v.mu.Unlock()
		switch event.Key() {
		case tcell.KeyUp:
			v.moveSelection(-1)
		case tcell.KeyDown:
			v.moveSelection(1)
		case tcell.KeyPgUp:
			v.page(-1)
		case tcell.KeyPgDn:
			v.page(1)
		case tcell.KeyHome:
			v.first()
		case tcell.KeyEnd:
			v.last()
		case tcell.KeyEnter:
			v.toggleSelected()
		case tcell.KeyRune:
			switch event.Rune() {
			case 'j':
				v.moveSelection(1)
			case 'k':
				v.moveSelection(-1)
			case 'g':
				v.first()
			case 'G':
				v.last()
			case ' ':
				v.toggleSelected()
			}
		}
	})
}

// MouseHandler scrolls on the wheel and takes focus (and selects the block
// under the pointer) on a click.
func (v *View) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return v.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		x, y := event.Position()
		if !v.InRect(x, y) {
			return false, nil
		}
		switch action {
		case tview.MouseScrollUp:
			v.mu.Lock()
			v.scrollBy(-wheelRows)
			v.mu.Unlock()
			return true, nil
		case tview.MouseScrollDown:
			v.mu.Lock()
			v.scrollBy(wheelRows)
			v.mu.Unlock()
			return true, nil
		case tview.MouseLeftClick:
			setFocus(v)
			v.mu.Lock()
			if i, ok := v.blockAt(y); ok {
				v.sel = i
			}
			v.mu.Unlock()
			return true, nil
		}
		return false, nil
	})
}

// blockAt returns the block drawn at screen row y.
func (v *View) blockAt(y int) (int, bool) {
	_, iy, _, _ := v.GetInnerRect()
	if len(v.entries) == 0 {
		return 0, false
	}
	if v.follow {
		v.top, v.topRow = v.bottomAnchor()
	}
	row := y - iy + v.topRow
	for i := v.top; i < len(v.entries); i++ {
		n := v.entries[i].rowCount(v, i)
		if row < n {
			return i, row >= v.spacer(i)
		}
		row -= n
	}
	return 0, false
}

// moveSelection selects the next (d > 0) or previous block and scrolls it
// into view. Without a selection it selects the last block.
func (v *View) moveSelection(d int) {
	if len(v.entries) == 0 {
		return
	}
	if v.sel < 0 || v.sel >= len(v.entries) {
		v.sel = len(v.entries) - 1
	} else {
		v.sel = min(max(v.sel+d, 0), len(v.entries)-1)
	}
	v.reveal(v.sel)
}

// page scrolls one page up (d < 0) or down, keeping two rows of context,
// and moves the selection onto the page when it left it.
func (v *View) page(d int) {
	v.scrollBy(d * max(v.height-2, 1))
	if v.sel >= 0 && !v.visible(v.sel) {
		if v.follow {
			v.top, v.topRow = v.bottomAnchor()
		}
		v.sel = v.top
		if v.topRow > v.spacer(v.top) && v.top+1 < len(v.entries) {
			v.sel = v.top + 1
		}
	}
}

// visible reports whether block i's first row is on screen.
func (v *View) visible(i int) bool {
	if v.follow {
		v.top, v.topRow = v.bottomAnchor()
	}
	if i < v.top || (i == v.top && v.topRow > v.spacer(i)) {
		return false
	}
	off := -v.topRow + v.spacer(i)
	for k := v.top; k < i; k++ {
		off += v.entries[k].rowCount(v, k)
		if off >= v.height {
			return false
		}
	}
	return off < v.height
}

func (v *View) first() {
	v.scrollToTop()
	if len(v.entries) > 0 {
		v.sel = 0
	}
}

func (v *View) last() {
	v.follow = true
	if len(v.entries) > 0 {
		v.sel = len(v.entries) - 1
	}
}

func (v *View) toggleSelected() {
	if v.sel >= 0 && v.sel < len(v.entries) {
		v.toggle(v.sel)
	}
}
