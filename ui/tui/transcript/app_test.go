package transcript

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// TestInApplication runs the view as the root of a tview application on a
// simulation screen, with a border and title, and drives it with keys.
func TestInApplication(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	app := tview.NewApplication()
	app.SetScreen(sim)
	sim.SetSize(40, 12) // SetScreen resets the size
	v := New(dark())
	v.SetBorder(true).SetTitle(" Transcript ")
	v.Upsert(Block{ID: "u", Kind: KindUser, Text: "hello 中文", Done: true})
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Read go.mod", Status: StatusDone, Text: "module pincer", Collapsed: true, Done: true})
	app.SetRoot(v, true).SetFocus(v)
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	defer func() {
		app.Stop()
		<-done
	}()

	screen := func() string {
		out := make(chan string, 1)
		app.QueueUpdate(func() {
			out <- strings.Join(rows(sim), "\n")
		})
		return <-out
	}
	waitFor := func(what string) string {
		t.Helper()
		var got string
		for i := 0; i < 200; i++ {
			if got = screen(); strings.Contains(got, what) {
				return got
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("%q never appeared:\n%s", what, got)
		return ""
	}
	got := waitFor("Transcript")
	for _, want := range []string{"═", "▌ hello 中文", "✓ Read go.mod"} {
		if !strings.Contains(got, want) {
			t.Fatalf("missing %q:\n%s", want, got)
		}
	}
	sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	sim.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	waitFor("│ module pincer")
	sim.SetSize(30, 8)
	app.QueueUpdateDraw(func() {})
	got = waitFor("module pincer")
	if lines := strings.Split(got, "\n"); len(lines) != 8 {
		t.Fatalf("resize: %d rows", len(lines))
	}
}
