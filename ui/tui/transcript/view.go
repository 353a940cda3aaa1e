package transcript

import (
	"strings"
	"sync"

	"github.com/rivo/tview"

	"pincer/themes"
)

// gutterWidth is the width of the column left of every row that holds the
// block's marker: the user bar, a tool's status icon, the fold arrow.
const gutterWidth = 2

// View is the transcript primitive: a virtualised list of blocks. Create it
// with New. All methods lock the view, so they may be called from any
// goroutine; the application still has to redraw (QueueUpdateDraw or its
// pump) after changes made outside the event loop.
type View struct {
	*tview.Box

	mu      sync.Mutex
	theme   *themes.Theme
	entries []*entry
	index   map[string]int

	width   int // content width of the last draw (inner width - gutter)
	height  int // inner height of the last draw
	follow  bool
	unseen  bool   // content arrived while not following (cleared once following)
	marker  string // shown on the last row while unseen; "" shows none
	top     int    // block index of the first visible row (when not following)
	topRow  int    // row within that block
	sel     int    // selected block, -1 for none
	maxTool int    // tool output lines shown before the "more lines" note

	// instrumentation (read by tests)
	renders   int // block renderings done
	rowsDrawn int // content rows drawn by the last Draw
}

// DefaultToolLines is how many lines of a tool's output an expanded tool
// block shows; a note says how many more there are.
const DefaultToolLines = 200

// New returns an empty transcript view drawn with the theme (nil means
// themes.Dark()), following the bottom, with no block selected.
func New(th *themes.Theme) *View {
	if th == nil {
		th = themes.Dark()
	}
	v := &View{
		Box:     tview.NewBox(),
		theme:   th,
		index:   map[string]int{},
		follow:  true,
		sel:     -1,
		maxTool: DefaultToolLines,
		width:   78,
		height:  24,
	}
	if th.NoColor {
		v.SetBackgroundColor(0) // tcell.ColorDefault
	} else {
		v.SetBackgroundColor(th.Background)
	}
	return v
}

// Upsert adds b at the end, or replaces the block with the same ID in place.
// Replacing a block whose new Text extends the old one (streaming by
// replacement) keeps the rendering of its finished part; any other change
// re-renders that block only. Changing only Collapsed re-renders nothing.
// Once the person expanded or collapsed a block (Toggle), that choice
// outlives every later Upsert of it: b.Collapsed is then ignored.
func (v *View) Upsert(b Block) {
	v.mu.Lock()
	defer v.mu.Unlock()
	i, ok := v.index[b.ID]
	if !ok {
		v.index[b.ID] = len(v.entries)
		v.entries = append(v.entries, &entry{b: b})
		v.unseen = v.unseen || !v.follow
		return
	}
	e := v.entries[i]
	old := e.b
	if e.toggled {
		b.Collapsed = old.Collapsed
	}
	if old == b {
		return
	}
	v.unseen = v.unseen || !v.follow
	e.b = b
	e.fromBuf = false
	switch {
	case old.Kind != b.Kind || old.Title != b.Title || old.Status != b.Status:
		e.invalidate()
	case old.Text != b.Text:
		if b.Done || old.Done || !strings.HasPrefix(b.Text, old.Text) {
			e.invalidate()
		} else {
			e.dirty = true
		}
	case old.Done != b.Done:
		// Finishing gives one canonical rendering of the whole text.
		e.invalidate()
	}
}

// AppendText appends delta to the Text of the block with that ID (no-op
// when there is none). Only the unfinished tail of the text (since the last
// paragraph break for markdown, the last newline for plain text) is
// re-wrapped on the next draw; appending is amortised O(len(delta)).
func (v *View) AppendText(id string, delta string) {
	if delta == "" {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	i, ok := v.index[id]
	if !ok {
		return
	}
	e := v.entries[i]
	e.appendText(delta)
	v.unseen = v.unseen || !v.follow
	if e.b.Done {
		e.invalidate()
	} else {
		e.dirty = true
	}
}

// Toggle collapses or expands the block with that ID. Only blocks with a
// title line (reasoning, tool, and any block with a Title) can collapse.
func (v *View) Toggle(id string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i, ok := v.index[id]; ok {
		v.toggle(i)
	}
}

func (v *View) toggle(i int) {
	e := v.entries[i]
	if !e.hasHead() {
		return
	}
	e.b.Collapsed = !e.b.Collapsed
	e.toggled = true
	if !v.follow && v.top == i && v.topRow >= e.rowCount(v, i) {
		v.topRow = 0
	}
}

// Selected returns the block at the cursor, if any.
func (v *View) Selected() (Block, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.sel < 0 || v.sel >= len(v.entries) {
		return Block{}, false
	}
	return v.entries[v.sel].b, true
}

// Follow turns sticking to the bottom on or off. It is on for a new view;
// scrolling up turns it off, scrolling to the end or G turns it on.
func (v *View) Follow(on bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.setFollow(on)
}

func (v *View) setFollow(on bool) {
	if !on && v.follow {
		v.top, v.topRow = v.bottomAnchor()
	}
	v.follow = on
	if on {
		v.unseen = false
	}
}

// Following reports whether the view sticks to the bottom.
func (v *View) Following() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.follow
}

// Len returns the number of blocks.
func (v *View) Len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.entries)
}

// Clear removes every block (a new session).
func (v *View) Clear() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.entries = nil
	v.index = map[string]int{}
	v.top, v.topRow, v.sel, v.follow = 0, 0, -1, true
}
