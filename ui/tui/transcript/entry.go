package transcript

import (
	"strings"

	"pincer/ui/tui/markdown"
)

// entry is a block plus its rendering caches.
type entry struct {
	b Block
	// toggled is set once the person expanded or collapsed the block: its
	// Collapsed is theirs from then on, whatever Upsert says.
	toggled bool

	// buf backs b.Text while it grows by AppendText, so appending does not
	// copy the whole text each time. fromBuf says b.Text aliases buf.
	buf     strings.Builder
	fromBuf bool

	// cache holds renderings for the two most recent widths, newest first.
	// For a Done block these are frozen; for a growing block cache[0] is
	// refreshed when dirty.
	cache [2]rendering
	dirty bool

	// Streaming state: the rendering of Text[:stableEnd] at stableW, kept
	// while the text grows at its end.
	split     markdown.Splitter
	stable    []markdown.Line
	stableEnd int
	stableW   int

	renders int
}

// rendering is a block laid out for one content width. Its body rows are
// stable, then (when both are non-empty and sep is set) one blank row, then
// tail; a frozen block has everything in stable.
type rendering struct {
	width  int // 0: empty slot
	head   []markdown.Line
	stable []markdown.Line
	sep    bool
	tail   []markdown.Line
}

// bodyLen returns the number of body rows.
func (r *rendering) bodyLen() int {
	n := len(r.stable) + len(r.tail)
	if r.sep && len(r.stable) > 0 && len(r.tail) > 0 {
		n++
	}
	return n
}

// bodyRow returns body row k; ok is false for the blank separator row.
func (r *rendering) bodyRow(k int) (markdown.Line, bool) {
	if k < len(r.stable) {
		return r.stable[k], true
	}
	k -= len(r.stable)
	if r.sep && len(r.stable) > 0 && len(r.tail) > 0 {
		if k == 0 {
			return markdown.Line{}, false
		}
		k--
	}
	return r.tail[k], true
}

// invalidate drops every cached rendering of the entry.
func (e *entry) invalidate() {
	e.cache = [2]rendering{}
	e.dirty = false
	e.resetStream()
}

func (e *entry) resetStream() {
	e.split.Reset()
	e.stable, e.stableEnd, e.stableW = nil, 0, 0
}

// appendText grows b.Text by delta in amortised O(len(delta)).
func (e *entry) appendText(delta string) {
	if !e.fromBuf {
		e.buf.Reset()
		e.buf.Grow(2*len(e.b.Text) + len(delta) + 64)
		e.buf.WriteString(e.b.Text)
		e.fromBuf = true
	}
	e.buf.WriteString(delta)
	e.b.Text = e.buf.String()
}

// hasHead reports whether the block has a title line (and so can collapse).
func (e *entry) hasHead() bool {
	return e.b.Kind == KindReasoning || e.b.Kind == KindTool || e.b.Title != ""
}

// compact kinds sit directly under each other without a blank row.
func compact(k Kind) bool { return k == KindTool || k == KindNotice }

// spacer returns 1 when block i is preceded by a blank row.
func (v *View) spacer(i int) int {
	if i == 0 || (compact(v.entries[i-1].b.Kind) && compact(v.entries[i].b.Kind)) {
		return 0
	}
	return 1
}

// rowCount returns the number of rows block i occupies at the current width,
// spacer included, rendering it if needed.
func (e *entry) rowCount(v *View, i int) int {
	r := v.rendered(e)
	n := v.spacer(i) + len(r.head)
	if !e.b.Collapsed || len(r.head) == 0 {
		n += r.bodyLen()
	}
	return n
}

// rendered returns the entry's rendering at the view's current width,
// computing it only when there is none for that width or the block changed.
// Renderings for the two most recent widths are kept, so toggling between
// two widths (zooming a pane) re-renders nothing.
func (v *View) rendered(e *entry) *rendering {
	w := v.width
	if e.dirty {
		e.cache = [2]rendering{}
		e.dirty = false
	} else if e.cache[0].width == w {
		return &e.cache[0]
	} else if e.cache[1].width == w {
		e.cache[0], e.cache[1] = e.cache[1], e.cache[0]
		return &e.cache[0]
	}
	var r rendering
	v.render(e, &r)
	r.width = w
	if e.cache[0].width != 0 && e.cache[0].width != w {
		e.cache[1] = e.cache[0]
	}
	e.cache[0] = r
	e.renders++
	v.renders++
	return &e.cache[0]
}
