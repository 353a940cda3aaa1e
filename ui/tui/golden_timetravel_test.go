package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/app"
	"pincer/core/event"
)

// goldenTravelSession is the session the time-travel golden frames scrub.
const goldenTravelSession = "20261201-130000-aa112233"

// goldenTravelEvents is a fixed two-turn log: turn 1 edits main.go (asked,
// allowed, checkpoint 1) and ends; turn 2 runs a command (checkpoint 2: it
// deleted old.txt and made gen.txt), then asks about a Write.
func goldenTravelEvents(t *testing.T) []event.Event {
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "fix the greeting"}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Edit", Summary: "Edit main.go", Reason: "edits ask"}).
		add(event.PermissionResolved, "t1", event.PermissionResolvedData{RequestID: "r1", ToolCallID: "c1", Decision: "allow", Scope: "once", By: "user"}).
		add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Edit", Summary: "Edit main.go"}).
		add(event.CheckpointRecorded, "t1", event.CheckpointRecordedData{ToolCallID: "c1", Seq: 1, Files: []event.CheckpointFileData{{Path: "main.go", Before: 20, After: 21}}}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Edit", Output: "Edited main.go", DurationMs: 4,
			Diff: "--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-hello\n+hello, world\n"}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "Greeting fixed."}).
		add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "stop"}).
		add(event.TurnStarted, "t2", event.TurnStartedData{Input: "regenerate"}).
		add(event.ToolStarted, "t2", event.ToolStartedData{ToolCallID: "c2", Name: "Bash", Summary: "Bash: rm old.txt && make gen.txt"}).
		add(event.CheckpointRecorded, "t2", event.CheckpointRecordedData{ToolCallID: "c2", Seq: 2, Files: []event.CheckpointFileData{{Path: "gen.txt", Before: -1, After: 4}, {Path: "old.txt", Before: 4, After: -1}}}).
		add(event.ToolCompleted, "t2", event.ToolCompletedData{ToolCallID: "c2", Name: "Bash", Output: "ok", DurationMs: 30}).
		add(event.PermissionRequested, "t2", event.PermissionRequestedData{RequestID: "r2", ToolCallID: "c3", Name: "Write", Summary: "Write notes.md", Reason: "Write needs approval",
			Diff: "--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1 @@\n+notes\n"}).
		add(event.PermissionResolved, "t2", event.PermissionResolvedData{RequestID: "r2", ToolCallID: "c3", Decision: "deny", Scope: "once", By: "user"}).
		add(event.ToolCompleted, "t2", event.ToolCompletedData{ToolCallID: "c3", Name: "Write", Output: "denied", IsError: true}).
		add(event.TurnCompleted, "t2", event.TurnCompletedData{StopReason: "stop"})
	for i := range r.evs {
		r.evs[i].SessionID = goldenTravelSession
	}
	return r.evs
}

// goldenWorkspaceDiff is what the backend's SessionDiff gives for the
// golden session through checkpoint 2 (the golden test has no store: the
// text is put where the backend's answer lands).
const goldenWorkspaceDiff = "diff --git a/gen.txt b/gen.txt\nnew file mode 100644\n--- /dev/null\n+++ b/gen.txt\n@@ -0,0 +1 @@\n+gen\n" +
	"diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-hello\n+hello, world\n" +
	"diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n"

// TestGoldenTimeTravel draws the scrub UI: a past session shown read-only
// and travelled to the step where turn 2's Write waits (the request pending
// then, the workspace's changes since the start in the diff pane, the
// marker and cursor bar on the status line, the travel keys on the key
// bar), and to the session's start; compared with testdata/golden
// (-update rewrites them).
func TestGoldenTimeTravel(t *testing.T) {
	evs := goldenTravelEvents(t)
	cases := []struct {
		name   string
		w, h   int
		pos    int
		expect []string
	}{
		{"timetravel-pending-120x40", 120, 40, 14, []string{"seq 14/17 · turn 2/2", "Write notes.md", "+gen", "-old"}},
		{"timetravel-start-80x24", 80, 24, 1, []string{"seq 1/17 · turn 0/2", "Nothing in the workspace had"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := startBenchWith(t, c.w, c.h, Options{}, func(w *Workbench) {
				w.layout = LayoutStacked
				w.now = func() time.Time { return evs[len(evs)-1].Timestamp }
			})
			b.w.pump.post(func() {
				w := b.w
				w.storeState, w.sessionID, w.readOnly = "", goldenTravelSession, true
				w.travel = &timeTravel{session: goldenTravelSession, events: evs}
				w.travelTo(w.sessionTab, c.pos)
				span, key, _, _, ok := w.travelSpan(w.sessionTab)
				if ok && span == (app.DiffSpan{Through: 2}) { // the backend's answer, as loadTravelDiff posts it
					w.travel.diff.key, w.travel.diff.ready, w.travel.diff.text = key, true, goldenWorkspaceDiff
				}
			})
			b.waitText(c.expect...)
			var got string
			b.onLoop(func() {
				b.w.app.ForceDraw()
				got = frame(b.sim)
			})
			b.stop()
			path := filepath.Join("testdata", "golden", c.name+".txt")
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
				t.Errorf("%s differs from the golden frame (-update rewrites it)\n got:\n%s\nwant:\n%s", c.name, got, want)
			}
			if strings.Contains(got, "⏵ y/s/a/n/N") {
				t.Errorf("time travel offers answer keys:\n%s", got)
			}
		})
	}
}
