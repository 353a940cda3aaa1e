package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"pincer/core/event"
)

// updateGolden rewrites testdata/golden from what the tests draw:
// go test ./ui/tui -run TestGoldenFrames -update
var updateGolden = flag.Bool("update", false, "rewrite the golden frames under testdata/golden")

// goldenSession is the fixed session the golden frames show: a turn that
// read a file and now waits on an Edit whose change is at column 150 of a
// long line.
const goldenSession = "20261201-120000-abcd1234"

// goldenEvents is the golden session's log, with fixed timestamps.
func goldenEvents(t *testing.T) []event.Event {
	long := strings.Repeat("x", 140)
	oldLine := "\t// " + long + " old"
	newLine := "\t// " + long + " new"
	diff := "--- a/main.go\n+++ b/main.go\n@@ -1,3 +1,3 @@\n package main\n-" + oldLine + "\n+" + newLine + "\n func main() {}\n"
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "rename the comment's last word"}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "I will read **main.go** first."}).
		add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Read", Input: `{"file_path":"main.go"}`, Summary: "Read main.go"}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Read", Output: "package main\n", DurationMs: 3}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m2", Role: "assistant", Text: "Now the edit."}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c2", Name: "Edit",
			Summary: "Edit main.go", Reason: "Edit needs approval (default mode asks before a file changes)", Diff: diff})
	for i := range r.evs {
		r.evs[i].SessionID = goldenSession
	}
	return r.evs
}

// frame is a screen as text (a wide rune's continuation cell skipped) and a
// small summary of its attributes: how many cells each style covers.
func frame(sim tcell.SimulationScreen) string {
	cells, width, height := sim.GetContents()
	var out strings.Builder
	styles := map[string]int{}
	for y := 0; y < height; y++ {
		var row strings.Builder
		for x := 0; x < width; x++ {
			c := cells[y*width+x]
			fg, bg, attr := c.Style.Decompose()
			styles[fmt.Sprintf("fg=%s bg=%s attr=%d", colorName(fg), colorName(bg), attr)]++
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				row.WriteByte(' ')
				continue
			}
			row.WriteString(string(c.Runes))
			if uniseg.StringWidth(string(c.Runes)) == 2 {
				x++
			}
		}
		out.WriteString(strings.TrimRight(row.String(), " ") + "\n")
	}
	out.WriteString("--- styles (cells per style)\n")
	keys := make([]string, 0, len(styles))
	for k := range styles {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&out, "%5d %s\n", styles[k], k)
	}
	return out.String()
}

// colorName writes a colour as #rrggbb (or "default").
func colorName(c tcell.Color) string {
	if c == tcell.ColorDefault {
		return "default"
	}
	return fmt.Sprintf("#%06x", c.Hex())
}

// TestGoldenFrames draws the golden session at 80x24, 120x40 and 200x50 in
// each layout and compares the frames with testdata/golden (-update
// rewrites them). The clock is fixed 5 s into the turn.
func TestGoldenFrames(t *testing.T) {
	evs := goldenEvents(t)
	for _, mode := range []LayoutMode{LayoutStacked, LayoutColumns, LayoutGrid} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
			name := fmt.Sprintf("%s-%dx%d", mode, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				b := startBenchWith(t, size[0], size[1], Options{}, func(w *Workbench) {
					w.layout = mode
					w.now = func() time.Time { return evs[1].Timestamp.Add(5 * time.Second) }
				})
				b.w.pump.post(func() { // on the event loop, and a frame after
					w := b.w
					w.storeState, w.sessionID, w.liveID, w.running = "", goldenSession, goldenSession, true // this workbench runs the turn
					for _, ev := range evs {
						w.applyEvent(w.key, ev)
					}
				})
				b.waitText("1 awaiting approval", "Edit main.go")
				var got string
				b.onLoop(func() {
					b.w.app.ForceDraw()
					got = frame(b.sim)
				})
				b.stop()
				if !strings.Contains(got, "xxx old") && !strings.Contains(got, "↪ old") { // the change at column 150 is in view (the diff pane wraps to it)
					t.Errorf("%s: the change at column 150 is not on the screen\n%s", name, got)
				}
				path := filepath.Join("testdata", "golden", name+".txt")
				if *updateGolden {
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from the golden frame (-update rewrites it)\n got:\n%s\nwant:\n%s", name, got, want)
				}
			})
		}
	}
}
