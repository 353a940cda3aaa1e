package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
)

// goldenSecond is the second tab's fixed session in the tabs' golden frames:
// a turn of its own waiting on a Write.
const goldenSecond = "20261201-120500-ef567890"

// goldenSecondEvents is the second tab's log, with fixed timestamps.
func goldenSecondEvents(t *testing.T) []event.Event {
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w2", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "write the tests"}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "Writing **main_test.go**."}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r2", ToolCallID: "c1", Name: "Write",
			Summary: "Write main_test.go", Reason: "Write needs approval", Diff: "--- /dev/null\n+++ b/main_test.go\n@@ -0,0 +1 @@\n+package main\n"})
	for i := range r.evs {
		r.evs[i].SessionID = goldenSecond
	}
	return r.evs
}

// TestGoldenTabs draws two tabs, both with a turn waiting on an approval:
// the tab bar, the status line's counts across tabs, the one queue (the
// other tab's request labelled with it), and the split view with both
// transcripts; compared with testdata/golden (-update rewrites them).
func TestGoldenTabs(t *testing.T) {
	evs, second := goldenEvents(t), goldenSecondEvents(t)
	for _, split := range []bool{false, true} {
		name := "tabs-120x40"
		if split {
			name = "tabs-split-120x40"
		}
		t.Run(name, func(t *testing.T) {
			b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) {
				w.layout = LayoutStacked
				w.now = func() time.Time { return evs[1].Timestamp.Add(5 * time.Second) }
			})
			b.w.pump.post(func() {
				w := b.w
				w.storeState, w.sessionID, w.liveID, w.running = "", goldenSession, goldenSession, true
				for _, ev := range evs {
					w.applyEvent(w.key, ev)
				}
				t2 := w.newTab()
				t2.sessionID, t2.liveID, t2.running = goldenSecond, goldenSecond, true
				w.tabs = append(w.tabs, t2)
				for _, ev := range second {
					w.applyEvent(t2.key, ev)
				}
				if split {
					w.toggleSplit()
				}
			})
			b.waitText("2 tabs: 2 running, 2 awaiting approval", "tab 2 · Write main_test.go")
			var got string
			b.onLoop(func() {
				b.w.app.ForceDraw()
				got = frame(b.sim)
			})
			b.stop()
			if split && !strings.Contains(got, "Writing main_test.go.") {
				t.Errorf("the split view does not show tab 2's transcript\n%s", got)
			}
			path := filepath.Join("testdata", "golden", name+".txt")
			if *updateGolden {
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
