package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// numbered returns a view with n one-line user blocks "msg 0" ... (each
// followed by a blank spacer row except the first).
func numbered(n int) *View {
	v := New(dark())
	for i := 0; i < n; i++ {
		v.Upsert(Block{ID: fmt.Sprint(i), Kind: KindUser, Text: fmt.Sprintf("msg %d", i), Done: true})
	}
	return v
}

func TestFollowSticksToBottom(t *testing.T) {
	v := numbered(50)
	s := newScreen(t, 30, 10)
	drawView(v, s)
	if r := rows(s); r[9] != "▌ msg 49" {
		t.Fatalf("last row %q", r[9])
	}
	v.Upsert(Block{ID: "s", Kind: KindAssistant, Text: "streaming"})
	v.AppendText("s", " more")
	drawView(v, s)
	if r := rows(s); r[9] != "  streaming more" {
		t.Fatalf("follow: last row %q", r[9])
	}
}

func TestScrollUpStopsFollowAndGResumes(t *testing.T) {
	v := numbered(50)
	s := newScreen(t, 30, 10)
	drawView(v, s)
	mouse := v.MouseHandler()
	wheel := func(a tview.MouseAction) {
		mouse(a, tcell.NewEventMouse(5, 5, tcell.WheelUp, tcell.ModNone), func(tview.Primitive) {})
	}
	wheel(tview.MouseScrollUp)
	if v.Following() {
		t.Fatal("scrolling up must stop following")
	}
	drawView(v, s)
	before := screenText(s)
	if strings.Contains(before, "msg 49") {
		t.Fatalf("scrolled 3 rows up, msg 49 should be gone:\n%s", before)
	}
	v.Upsert(Block{ID: "new", Kind: KindUser, Text: "new message", Done: true})
	drawView(v, s)
	if screenText(s) != before {
		t.Fatal("content moved while not following")
	}
	wheel(tview.MouseScrollDown)
	wheel(tview.MouseScrollDown)
	drawView(v, s)
	if !v.Following() || rows(s)[9] != "▌ new message" {
		t.Fatalf("scrolling to the end resumes following: %v %q", v.Following(), rows(s)[9])
	}
	key := keySender(v)
	key(tcell.KeyRune, 'g')
	drawView(v, s)
	if v.Following() || rows(s)[0] != "▌ msg 0" {
		t.Fatalf("g: %q", rows(s)[0])
	}
	key(tcell.KeyRune, 'G')
	drawView(v, s)
	if !v.Following() || rows(s)[9] != "▌ new message" {
		t.Fatalf("G: %q", rows(s)[9])
	}
}

func TestPageUpDown(t *testing.T) {
	v := numbered(50) // 99 rows
	s := newScreen(t, 30, 10)
	drawView(v, s)
	key := keySender(v)
	key(tcell.KeyRune, 'g')
	drawView(v, s)
	key(tcell.KeyPgDn, 0)
	drawView(v, s)
	// A page is height-2 rows: row 8 of the content ("msg 4") is on top.
	if r := rows(s); r[0] != "▌ msg 4" {
		t.Fatalf("PgDn: top %q", r[0])
	}
	key(tcell.KeyPgUp, 0)
	drawView(v, s)
	if r := rows(s); r[0] != "▌ msg 0" {
		t.Fatalf("PgUp: top %q", r[0])
	}
	for i := 0; i < 20; i++ {
		key(tcell.KeyPgDn, 0)
	}
	drawView(v, s)
	if !v.Following() || rows(s)[9] != "▌ msg 49" {
		t.Fatalf("PgDn to the end: %v %q", v.Following(), rows(s)[9])
	}
}

func TestSelectionScrollsIntoView(t *testing.T) {
	v := numbered(50)
	s := newScreen(t, 30, 10)
	drawView(v, s)
	key := keySender(v)
	for i := 0; i < 10; i++ {
		key(tcell.KeyRune, 'k')
	}
	if b, _ := v.Selected(); b.ID != "40" {
		t.Fatalf("selected %q", b.ID)
	}
	drawView(v, s)
	if findRow(s, "msg 40") < 0 {
		t.Fatalf("selection off screen:\n%s", screenText(s))
	}
	if v.Following() {
		t.Fatal("moving the selection up stops following")
	}
	key(tcell.KeyHome, 0)
	drawView(v, s)
	if rows(s)[0] != "▌ msg 0" {
		t.Fatal("Home shows the first block")
	}
	for i := 0; i < 12; i++ {
		key(tcell.KeyRune, 'j')
	}
	drawView(v, s)
	if y := findRow(s, "msg 12"); y < 0 {
		t.Fatalf("selection below the page must scroll:\n%s", screenText(s))
	}
}

func TestClickSelects(t *testing.T) {
	v := numbered(3)
	s := newScreen(t, 30, 10)
	drawView(v, s)
	y := findRow(s, "msg 1")
	var focused tview.Primitive
	v.MouseHandler()(tview.MouseLeftClick, tcell.NewEventMouse(3, y, tcell.Button1, tcell.ModNone), func(p tview.Primitive) { focused = p })
	if b, _ := v.Selected(); b.ID != "1" || focused != v {
		t.Fatalf("click selected %q focus %v", b.ID, focused)
	}
}

func TestResizeKeepsDrawing(t *testing.T) {
	v := bigView(t)
	s := newScreen(t, 200, 50)
	for _, w := range []int{200, 80, 13, 3, 1, 120} {
		s.SetSize(w, 50)
		drawView(v, s)
		if w > gutterWidth && v.rowsDrawn != 50 {
			t.Fatalf("width %d: drew %d rows", w, v.rowsDrawn)
		}
	}
}
