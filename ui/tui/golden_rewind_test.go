package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"pincer/core/app"
	"pincer/core/event"
)

// rewindGoldenEvents is a finished two-turn session (turn 1 wrote a.go,
// turn 2 wrote b.go and ran a Bash call that changed notes.txt), then the
// first request of a code rewind to before turn 2, as
// app.Backend.RewindSession puts it: its diff over the files as they are,
// the hand-edited notes.txt named in the reason and the diff.
func rewindGoldenEvents(t *testing.T) []event.Event {
	diff := "diff --git a/b.go b/b.go\ndeleted file mode 100644\n--- a/b.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-package b\n-func B() {}\n" +
		"# notes.txt: changed outside pincer since the checkpoint (modified since)\n" +
		"diff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1 @@\n todo\n-my own line\n"
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "add package a"}).
		add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Write", Summary: "Write a.go"}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Write", Output: "wrote a.go", DurationMs: 2}).
		add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "end_turn"}).
		add(event.TurnStarted, "t2", event.TurnStartedData{Input: "add package b and note it"}).
		add(event.ToolStarted, "t2", event.ToolStartedData{ToolCallID: "c2", Name: "Write", Summary: "Write b.go"}).
		add(event.ToolCompleted, "t2", event.ToolCompletedData{ToolCallID: "c2", Name: "Write", Output: "wrote b.go", DurationMs: 2}).
		add(event.ToolStarted, "t2", event.ToolStartedData{ToolCallID: "c3", Name: "Bash", Summary: "Bash: sed -i /my/d notes.txt"}).
		add(event.ToolCompleted, "t2", event.ToolCompletedData{ToolCallID: "c3", Name: "Bash", Output: "", DurationMs: 5}).
		add(event.TurnCompleted, "t2", event.TurnCompletedData{StopReason: "end_turn"}).
		add(event.PermissionRequested, "", event.PermissionRequestedData{RequestID: "rewind-1", ToolCallID: "rewind-call-1",
			Name: app.RewindTool, Summary: "Rewind: restore 2 files to before turn 2",
			Reason: "Rewind the code to before turn 2: the diff is what it writes. 1 file changed outside pincer since the checkpoint and kept unless you confirm the next request: notes.txt: modified since.",
			Diff:   diff})
	for i := range r.evs {
		r.evs[i].SessionID = goldenSession
	}
	return r.evs
}

// rewindOverwriteEvents follow rewindGoldenEvents: the first request
// allowed (b.go restored), then the second, louder one for notes.txt.
func rewindOverwriteEvents(t *testing.T) []event.Event {
	evs := rewindGoldenEvents(t)
	r := &recorder{t: t, evs: evs}
	r.add(event.PermissionResolved, "", event.PermissionResolvedData{RequestID: "rewind-1", ToolCallID: "rewind-call-1",
		Decision: "allow", Scope: "once", By: "user"}).
		add(event.ToolCompleted, "", event.ToolCompletedData{ToolCallID: "rewind-call-1", Name: app.RewindTool,
			Summary: "Rewind: restore 2 files to before turn 2", Output: "restored 2 files"}).
		add(event.PermissionRequested, "", event.PermissionRequestedData{RequestID: "rewind-2", ToolCallID: "rewind-call-2",
			Name: app.RewindTool, Summary: "Rewind: OVERWRITE 1 file changed outside pincer since the checkpoint",
			Reason: "⚠ Allowing this overwrites changes made outside pincer after the checkpoint (the diff shows what is lost): notes.txt: modified since. Deny keeps them as they are.",
			Diff:   "# notes.txt: changed outside pincer since the checkpoint (modified since)\ndiff --git a/notes.txt b/notes.txt\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1 @@\n todo\n-my own line\n"})
	out := r.evs[len(evs)-1:]
	for i := range out {
		out[i].SessionID = goldenSession
	}
	return out
}

// rewindGoldenTurns are the golden session's turns as RewindTurns lists them.
func rewindGoldenTurns() []app.TurnSummary {
	at := func(h, m int) time.Time { return time.Date(2026, 12, 1, h, m, 0, 0, time.Local) }
	return []app.TurnSummary{
		{Number: 1, ID: "t1", Time: at(12, 0), Prompt: "add package a", Files: []string{"a.go"}},
		{Number: 2, ID: "t2", Time: at(12, 4), Prompt: "add package b and note it", Files: []string{"b.go", "notes.txt"}},
		{Number: 3, ID: "t3", Time: at(12, 9), Prompt: "what does package b do?"},
	}
}

// TestRewindGoldenFrames draws, at 120x40, the turn list, turn 2's mode
// choice, and the approval row of its code restore with the diff pane
// showing the restore and the changed-outside warning; each is compared
// with testdata/golden/rewind-*.txt (-update rewrites them).
func TestRewindGoldenFrames(t *testing.T) {
	evs := rewindGoldenEvents(t)
	for _, c := range []struct {
		name  string
		view  func(w *Workbench)
		waits []string
	}{
		{"rewind-list", func(w *Workbench) {
			w.rw = rewindView{open: true, session: goldenSession, turns: rewindGoldenTurns(), sel: 1}
		}, []string{"Rewind — restore the code", "▸   2"}},
		{"rewind-choice", func(w *Workbench) {
			w.rw = rewindView{open: true, session: goldenSession, turns: rewindGoldenTurns(), sel: 1, choose: true}
		}, []string{"to before turn 2: what to restore?", "4. Never mind"}},
		{"rewind-approval", func(w *Workbench) {
			for _, ev := range evs[len(evs)-1:] {
				w.applyEvent(w.key, ev)
			}
		}, []string{"? Rewind: restore 2 files to before turn 2", "# notes.txt: changed outside pincer"}},
		{"rewind-overwrite", func(w *Workbench) {
			for _, ev := range rewindOverwriteEvents(t) {
				w.applyEvent(w.key, ev)
			}
		}, []string{"? Rewind: OVERWRITE 1 file", "-my own line"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) {
				w.now = func() time.Time { return evs[len(evs)-1].Timestamp.Add(5 * time.Second) }
			})
			b.w.pump.post(func() {
				w := b.w
				w.storeState, w.sessionID, w.liveID = "", goldenSession, goldenSession
				for _, ev := range evs[:len(evs)-1] {
					w.applyEvent(w.key, ev)
				}
				c.view(w)
			})
			b.waitText(c.waits...)
			var got string
			b.onLoop(func() {
				b.w.app.ForceDraw()
				got = frame(b.sim)
			})
			b.stop()
			path := filepath.Join("testdata", "golden", c.name+"-120x40.txt")
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
		})
	}
}
