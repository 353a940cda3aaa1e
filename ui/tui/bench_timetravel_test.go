package tui

import (
	"context"
	"fmt"
	"testing"

	"pincer/core/event"
	"pincer/persist/longsession"
	"pincer/persist/memory"
)

// travelLog is the log of a 2,000-message session (persist/longsession: 1,000
// turns, every fifth with an approved Bash call).
func travelLog(b *testing.B) []event.Event {
	b.Helper()
	store := memory.New()
	res, err := longsession.Write(context.Background(), store, longsession.Options{ID: "20261202-000000-longlong", Cwd: "/w", Messages: 2000})
	if err != nil {
		b.Fatal(err)
	}
	evs, err := event.NewLog(store).Read(context.Background(), res.Session.ID, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	return evs
}

// BenchmarkTravelFold is a step back in time travel (issue 15): the reducer
// folding a 2,000-message session's log from its start to a position (the
// middle, the end); a step back costs one such fold.
func BenchmarkTravelFold(b *testing.B) {
	evs := travelLog(b)
	for _, at := range []struct {
		name string
		pos  int
	}{{"middle", len(evs) / 2}, {"end", len(evs)}} {
		b.Run(fmt.Sprintf("%s-of-%d-events", at.name, len(evs)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if m := foldTo(evs, at.pos); m.LastSequence != evs[at.pos-1].Sequence {
					b.Fatalf("folded to %d", m.LastSequence)
				}
			}
		})
	}
}

// BenchmarkTravelStepForward is a step forward: one more event applied to
// the model of the session at its middle (the fold is redone, untimed, each
// time the steps reach the end).
func BenchmarkTravelStepForward(b *testing.B) {
	evs := travelLog(b)
	start := len(evs) / 2
	m, pos := foldTo(evs, start), start
	b.ReportAllocs()
	for b.Loop() {
		if pos == len(evs) {
			b.StopTimer()
			m, pos = foldTo(evs, start), start
			b.StartTimer()
		}
		m.Apply(evs[pos])
		pos++
	}
}

// BenchmarkTravelStepBackFrame is a step back as the person sees it: on a
// running workbench (200×50 simulation screen) travelling the 2,000-message
// session, the fold of the log to one event earlier, the transcript view
// rebuilt from the folded model and the frame drawn. Each op steps back
// from the end by one more event (the fold's length barely changes).
func BenchmarkTravelStepBackFrame(b *testing.B) {
	evs := travelLog(b)
	w, _ := perfNew(b)
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	b.Cleanup(func() { w.Stop(); <-done })
	w.app.QueueUpdate(func() {
		w.sessionID, w.readOnly = evs[0].SessionID, true
		w.travel = &timeTravel{session: evs[0].SessionID, events: evs}
		w.travelTo(w.sessionTab, len(evs))
	})
	w.drawFrame()
	b.ReportAllocs()
	for b.Loop() {
		w.app.QueueUpdate(func() {
			if w.travel.pos <= 2 {
				w.travelTo(w.sessionTab, len(evs))
			}
			w.travelTo(w.sessionTab, w.travel.pos-1)
		})
		w.drawFrame()
	}
}
