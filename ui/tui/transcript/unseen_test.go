package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestUnseenMarker: scrolled up, a block added below shows the marker on
// the pane's last row; following again (G/End) takes it away, and nothing
// new while following never shows it.
func TestUnseenMarker(t *testing.T) {
	v := New(dark())
	v.SetUnseenMarker("↓ new output — G/End")
	for i := 0; i < 40; i++ {
		v.Upsert(Block{ID: fmt.Sprint("a", i), Kind: KindAssistant, Text: fmt.Sprint("line ", i), Done: true})
	}
	s := newScreen(t, 40, 10)
	drawView(v, s)
	if strings.Contains(screenText(s), "new output") {
		t.Fatalf("marker while following:\n%s", screenText(s))
	}
	send := keySender(v)
	send(tcell.KeyPgUp, 0)
	for i := 0; i < 5; i++ {
		send(tcell.KeyPgUp, 0)
	}
	drawView(v, s)
	if strings.Contains(screenText(s), "new output") {
		t.Fatalf("marker with nothing new:\n%s", screenText(s))
	}
	v.Upsert(Block{ID: "new", Kind: KindAssistant, Text: "fresh", Done: true})
	drawView(v, s)
	r := rows(s)
	if last := r[len(r)-1]; !strings.Contains(last, "↓ new output — G/End") {
		t.Fatalf("last row %q, screen:\n%s", last, screenText(s))
	}
	v.AppendText("new", " more")
	v.Follow(true)
	drawView(v, s)
	if txt := screenText(s); strings.Contains(txt, "new output") || !strings.Contains(txt, "fresh more") {
		t.Fatalf("after following:\n%s", txt)
	}
}
