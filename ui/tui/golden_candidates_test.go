package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"pincer/core/event"
	mem "pincer/core/memory"
)

// candidateGoldenEvents is a finished turn, then the feedback memory
// candidate "/memory add always use tabs and pnpm" proposes (its target in
// a data dir that does not exist: the diff is from nothing).
func candidateGoldenEvents(t *testing.T) ([]event.Event, mem.Candidate) {
	content := "---\ntype: feedback\nname: always use tabs and pnpm\ndescription: Always use tabs and pnpm.\ncreated: 2026-12-01T12:00:00Z\nsource:\n    session: " + goldenSession + "\n---\n\nAlways use tabs and pnpm.\n"
	c := mem.Candidate{ID: "cand-1", Kind: mem.KindMemory, Op: mem.OpAdd, Type: "feedback", Name: "always use tabs and pnpm",
		Description: "Always use tabs and pnpm.", Content: content, Scope: mem.ScopeProject, Origin: mem.OriginSlash,
		Target: "/nonexistent-golden/pincer/memory/projects/001-w/always-use-tabs-and-pnpm.md"}
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "what is in this repo?"}).
		add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "end_turn"}).
		add(event.CandidateProposed, "", event.CandidateProposedData{ID: c.ID, Kind: c.Kind, Op: c.Op, Type: c.Type,
			Name: c.Name, Description: c.Description, Content: c.Content, Target: c.Target, Scope: c.Scope, Origin: c.Origin})
	for i := range r.evs {
		r.evs[i].SessionID = goldenSession
	}
	return r.evs, c
}

// TestCandidateGoldenFrame draws, at 120x40, a memory candidate in the
// approval queue — its row (kind, op, type, name, file), the queue's title
// with a candidate's keys, the diff pane with what accepting it writes
// (memory.Diff: the file, then the MEMORY.md line) — and then the editor e
// opens on it; each is compared with testdata/golden/candidate-*.txt
// (-update rewrites them).
func TestCandidateGoldenFrame(t *testing.T) {
	evs, c := candidateGoldenEvents(t)
	for _, tc := range []struct {
		name  string
		view  func(w *Workbench)
		waits []string
	}{
		{"candidate-queue", func(w *Workbench) {}, []string{"? Memory: add feedback", "+type: feedback"}},
		{"candidate-editor", func(w *Workbench) {
			if e, ok := w.pendingOf(candidateKey(c.ID)); ok {
				w.openCandidateEditor(e)
			}
		}, []string{"Ctrl+S saves · Esc cancels", "Always use tabs and pnpm."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := startBenchWith(t, 120, 40, Options{}, func(w *Workbench) {
				w.now = func() time.Time { return evs[len(evs)-1].Timestamp.Add(5 * time.Second) }
			})
			b.w.pump.post(func() {
				w := b.w
				w.storeState, w.sessionID, w.liveID = "", goldenSession, goldenSession
				w.candDiff = candidateDiffs{diffs: map[string]string{c.ID: mem.Diff(c)}, asked: map[string]bool{c.ID: true}}
				for _, ev := range evs {
					w.applyEvent(w.key, ev)
				}
				tc.view(w)
			})
			b.waitText(tc.waits...)
			var got string
			b.onLoop(func() {
				b.w.app.ForceDraw()
				got = frame(b.sim)
			})
			b.stop()
			path := filepath.Join("testdata", "golden", tc.name+"-120x40.txt")
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
				t.Errorf("%s differs from the golden frame (-update rewrites it)\n got:\n%s\nwant:\n%s", tc.name, got, want)
			}
		})
	}
}
