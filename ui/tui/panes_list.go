package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// listRow is one row of a list pane. Key identifies it across redraws, so the
// selection stays on the same entry when rows are added or removed.
type listRow struct {
	Key       string
	Icon      string
	IconStyle tcell.Style
	Text      string
	Style     tcell.Style
	Right     string // right-aligned (a duration)
	Detail    string // muted text after Text
	// EndCut fits the row by cutting its end (fitApprovalRow: the approvals
	// pane, whose text starts with the tool) instead of eliding the middles
	// of text and detail (fitListRow: the timeline's paths keep their file).
	EndCut bool
	// Fit, when set, fits the row instead (row_fit.go: a subagent's row
	// keeps its first words).
	Fit rowFitter
}

// listPane is a bordered list with a selection: the timeline and the approval
// queue. Its rows come from the model on every draw; it is drawn and driven on
// the event loop.
type listPane struct {
	*tview.Box
	rows    func() []listRow
	theme   func(token string) tcell.Style
	sel     string // key of the selected row
	idx     int    // its last known index
	offset  int
	follow  bool // keep the last row selected as rows are added
	visible int  // rows visible at the last draw
	// fellBack: the selected row went away (an answered request) and the
	// selection fell back to the nearest index, no key chosen by a person
	// since; the approvals pane then moves it to the next pending request.
	fellBack bool
}

func newListPane(rows func() []listRow, style func(string) tcell.Style, follow bool) *listPane {
	p := &listPane{Box: tview.NewBox(), rows: rows, theme: style, follow: follow}
	p.SetBorder(true)
	return p
}

// selected returns the selected row; false when the list is empty.
func (p *listPane) selected() (listRow, bool) {
	rows := p.rows()
	i := p.resolve(rows)
	if i < 0 {
		return listRow{}, false
	}
	return rows[i], true
}

// resolve finds the selected row in rows (by key, else the nearest index) and
// remembers it.
func (p *listPane) resolve(rows []listRow) int {
	if len(rows) == 0 {
		p.idx = 0
		return -1
	}
	if p.follow {
		p.idx = len(rows) - 1
		p.sel = rows[p.idx].Key
		return p.idx
	}
	for i, r := range rows {
		if r.Key == p.sel {
			p.idx = i
			return i
		}
	}
	p.idx = max(0, min(p.idx, len(rows)-1))
	p.sel, p.fellBack = rows[p.idx].Key, true
	return p.idx
}

// move handles a navigation action; it reports whether it was one.
func (p *listPane) move(act Action) bool {
	rows := p.rows()
	i := p.resolve(rows)
	if i < 0 {
		return isNavigation(act)
	}
	page := max(1, p.visible-1)
	switch act {
	case ActDown:
		i++
	case ActUp:
		i--
	case ActTop:
		i = 0
	case ActBottom:
		i = len(rows) - 1
	case ActPageDown:
		i += page
	case ActPageUp:
		i -= page
	default:
		return false
	}
	i = max(0, min(i, len(rows)-1))
	p.idx, p.sel, p.fellBack = i, rows[i].Key, false
	p.follow = i == len(rows)-1 && act != ActUp && act != ActPageUp
	return true
}

func isNavigation(a Action) bool {
	switch a {
	case ActDown, ActUp, ActTop, ActBottom, ActPageDown, ActPageUp:
		return true
	}
	return false
}

// Draw draws the border and the visible rows, keeping the selection in view;
// a row too long for the pane has its text and detail elided in the middle
// (fitListRow), never its end cut.
func (p *listPane) Draw(screen tcell.Screen) {
	p.Box.DrawForSubclass(screen, p)
	x, y, width, height := p.GetInnerRect()
	p.visible = height
	if width <= 0 || height <= 0 {
		return
	}
	rows := p.rows()
	sel := p.resolve(rows)
	if len(rows) == 0 {
		printAt(screen, x+1, y, width-1, "nothing yet", p.theme("muted"))
		return
	}
	if sel < p.offset {
		p.offset = sel
	}
	if sel >= p.offset+height {
		p.offset = sel - height + 1
	}
	p.offset = max(0, min(p.offset, len(rows)-height))
	for row := 0; row < height && p.offset+row < len(rows); row++ {
		i := p.offset + row
		r := rows[i]
		base := p.theme("text")
		if i == sel {
			base = p.theme("selection")
			if !p.HasFocus() {
				base = base.Dim(true)
			}
			fillRow(screen, x, y+row, width, base)
		}
		col := x
		if r.Icon != "" {
			st := r.IconStyle
			if i == sel {
				st = st.Background(styleBackground(base))
			}
			col += printAt(screen, col, y+row, 2, r.Icon, st) + 1
		}
		rightW := 0
		if r.Right != "" {
			rightW = textWidth(r.Right) + 1
		}
		avail := width - (col - x) - rightW
		textStyle := r.Style
		if i == sel {
			textStyle = base
		}
		fit := fitListRow
		if r.EndCut {
			fit = fitApprovalRow
		}
		var text, detailText string
		if r.Fit != nil {
			text, detailText = r.Fit(avail)
		} else {
			text, detailText = fit(r.Text, r.Detail, avail)
		}
		n := printAt(screen, col, y+row, avail, text, textStyle)
		if detailText != "" && n+2 < avail {
			detail := p.theme("muted")
			if i == sel {
				detail = base
			}
			printAt(screen, col+n+2, y+row, avail-n-2, detailText, detail)
		}
		if rightW > 0 && width > rightW {
			printAt(screen, x+width-rightW+1, y+row, rightW-1, r.Right, p.theme("muted"))
		}
	}
}

// styleBackground returns the background colour of a style.
func styleBackground(s tcell.Style) tcell.Color {
	_, bg, _ := s.Decompose()
	return bg
}
