package tui

import "strconv"

// cursorMove returns the shortest bytes that move the terminal's cursor from
// column fx, row fy (fx < 0: not known) to column x, row y, all from 0:
// nothing if it is there; CUP (ESC[row;colH, the column left out for the
// first one, both for the home cell) when the cursor is not known; else the
// shortest of CUP, CR (to the first column), CUF / CUB (ESC[nC / ESC[nD,
// forward and back on the row, n left out for 1), CUU / CUD (ESC[nA /
// ESC[nB, up and down) followed by the row's move, and advance: the bytes
// that print again what the cells from fx up to x already show, in the
// terminal's pen ("" when they cannot be, e.g. a wide character among them
// or another pen; the caller decides). Ties go to the earlier in that order.
func cursorMove(fx, fy, x, y int, advance string) string {
	if fx == x && fy == y {
		return ""
	}
	best := cup(x, y)
	if fx < 0 || fy < 0 {
		return best
	}
	try := func(s string) {
		if len(s) < len(best) {
			best = s
		}
	}
	if fy == y {
		try(rowMove(fx, x))
		if advance != "" && x > fx {
			try(advance)
		}
		return best
	}
	vertical := csiN(fy-y, 'A')
	if y > fy {
		vertical = csiN(y-fy, 'B')
	}
	try(vertical + rowMove(fx, x))
	return best
}

// cup is CUP to column x, row y (from 0).
func cup(x, y int) string {
	switch {
	case x == 0 && y == 0:
		return "\x1b[H"
	case x == 0:
		return "\x1b[" + strconv.Itoa(y+1) + "H"
	}
	return "\x1b[" + strconv.Itoa(y+1) + ";" + strconv.Itoa(x+1) + "H"
}

// rowMove is the shortest move along a row from column fx to x: nothing,
// CR, CR then CUF, CUF or CUB.
func rowMove(fx, x int) string {
	switch {
	case fx == x:
		return ""
	case x == 0:
		return "\r"
	case x > fx:
		return csiN(x-fx, 'C')
	}
	back, fromCR := csiN(fx-x, 'D'), "\r"+csiN(x, 'C')
	if len(fromCR) < len(back) {
		return fromCR
	}
	return back
}

// csiN is ESC[n followed by final, n left out when 1 (its default).
func csiN(n int, final byte) string {
	if n == 1 {
		return "\x1b[" + string(final)
	}
	return "\x1b[" + strconv.Itoa(n) + string(final)
}
