package transcript

// Scrolling works on an anchor: the block at the top of the pane and the
// row inside it. Only the blocks walked over are rendered, so scrolling and
// resizing cost what is on screen plus what is scrolled past, never the
// whole transcript.

// bottomAnchor returns the anchor that puts the last row at the bottom of
// the pane (or the first row at the top when everything fits).
func (v *View) bottomAnchor() (int, int) {
	need := v.height
	for i := len(v.entries) - 1; i >= 0; i-- {
		n := v.entries[i].rowCount(v, i)
		if n >= need {
			return i, n - need
		}
		need -= n
	}
	return 0, 0
}

// clampAnchor keeps the anchor inside the content and never leaves empty
// rows under the last block when there is content above.
func (v *View) clampAnchor() {
	if v.top >= len(v.entries) {
		v.top, v.topRow = len(v.entries)-1, 0
	}
	if v.top < 0 {
		v.top, v.topRow = 0, 0
	}
	if n := v.entries[v.top].rowCount(v, v.top); v.topRow >= n {
		v.topRow = max(n-1, 0)
	}
	if v.top < 0 {
		return
	}
	if !v.fills(v.top, v.topRow) {
		v.top, v.topRow = v.bottomAnchor()
	}
}

// fills reports whether the rows from the anchor to the end fill the pane.
func (v *View) fills(i, r int) bool {
	need := v.height + r
	for ; i < len(v.entries); i++ {
		need -= v.entries[i].rowCount(v, i)
		if need <= 0 {
			return true
		}
	}
	return false
}

// scrollBy moves the anchor n rows (negative: up). Scrolling up leaves
// follow mode; reaching the end enters it.
func (v *View) scrollBy(n int) {
	if len(v.entries) == 0 {
		return
	}
	if v.follow {
		if n >= 0 {
			return
		}
		v.setFollow(false)
	}
	i, r := v.top, v.topRow+n
	for r < 0 && i > 0 {
		i--
		r += v.entries[i].rowCount(v, i)
	}
	if r < 0 {
		r = 0
	}
	for i < len(v.entries)-1 {
		c := v.entries[i].rowCount(v, i)
		if r < c {
			break
		}
		r -= c
		i++
	}
	v.top, v.topRow = i, r
	if !v.fills(i, r+1) {
		v.follow = true
	}
}

// scrollToTop shows the first row and leaves follow mode.
func (v *View) scrollToTop() {
	v.follow = false
	v.top, v.topRow = 0, 0
}

// reveal scrolls so that block i's first row is visible: to the top when
// it is above the pane; when it is below, so that as much of the block as
// fits is shown at the bottom.
func (v *View) reveal(i int) {
	if v.follow {
		v.top, v.topRow = v.bottomAnchor()
	}
	start := v.spacer(i)
	if i < v.top || (i == v.top && v.topRow > start) {
		v.follow = false
		v.top, v.topRow = i, start
		return
	}
	// Rows from the anchor to block i's first row.
	off := -v.topRow
	for k := v.top; k < i; k++ {
		off += v.entries[k].rowCount(v, k)
	}
	off += start
	if off < v.height {
		return
	}
	n := v.entries[i].rowCount(v, i)
	if n-start > v.height {
		v.follow = false
		v.top, v.topRow = i, start
		return
	}
	// Put the block's last row at the bottom.
	need := v.height - n
	k := i
	r := 0
	for need > 0 && k > 0 {
		k--
		c := v.entries[k].rowCount(v, k)
		if c >= need {
			r = c - need
			need = 0
			break
		}
		need -= c
	}
	v.top, v.topRow = k, r
	v.follow = !v.fills(k, r+1)
}
