//go:build unix

package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
)

// BenchmarkTabsStreaming streams two sessions at once, each in its own tab:
// the first tab's (shown) and a second tab's, each 1,000 message.delta
// events a second (paced as BenchmarkStreamDeltas/paced), through the real
// path (the log, one pump follower per tab, the coalescer, the frame). One
// op is one second of both streams. The frame rate must stay the pump's
// (≤ 30 draws/s, however many tabs stream) and the cost per delta near one
// tab's.
//   - hidden: the second tab is not on screen (its model folds the events;
//     its transcript view is synced when it is shown).
//   - split: the split view shows both transcripts, both synced every frame.
//
// cpu-ms/s is the process's CPU per second of the two streams (10 = 1% of a
// core), draws/s the frames drawn.
func BenchmarkTabsStreaming(b *testing.B) {
	for _, split := range []bool{false, true} {
		name := map[bool]string{false: "hidden", true: "split"}[split]
		b.Run(name, func(b *testing.B) {
			p := perfStart(b, 10)
			s2, err := p.ag.CreateSession(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			var t2 *sessionTab
			p.w.app.QueueUpdate(func() {
				t2 = p.w.newTab()
				p.w.tabs = append(p.w.tabs, t2)
				if split {
					p.w.toggleSplit()
				}
			})
			p.w.showSession(t2, backendOf(p.ag), s2.ID, false)
			p.settle(b)
			shows0, cpu0, ops, start := p.s.shows.Load(), perfCPU(b), 0, time.Now()
			for b.Loop() {
				ops++
				msg, begin := fmt.Sprintf("m%d", ops), time.Now()
				var text strings.Builder
				for i := 0; i < 1000; i++ {
					if d := time.Until(begin.Add(time.Duration(i) * time.Millisecond)); d > 0 {
						time.Sleep(d)
					}
					d := " token"
					if i%40 == 39 {
						d = ".\n\nNext paragraph"
					}
					text.WriteString(d)
					p.emit(b, event.MessageDelta, "live", event.MessageDeltaData{MessageID: msg, Delta: d, Kind: "text"})
					if _, err := p.ag.Log().Emit(context.Background(), event.MessageDelta, s2.ID, "live",
						event.MessageDeltaData{MessageID: msg, Delta: d, Kind: "text"}); err != nil {
						b.Fatal(err)
					}
				}
				p.emit(b, event.MessageCompleted, "live", event.MessageCompletedData{MessageID: msg, Role: "assistant", Text: text.String()})
			}
			p.settle(b)
			secs := time.Since(start).Seconds()
			b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/float64(ops), "cpu-ms/s")
			b.ReportMetric(float64(p.s.shows.Load()-shows0)/secs, "draws/s")
		})
	}
}

// BenchmarkTabsIdle is BenchmarkIdle with three tabs open (the split view
// on): one op is one idle second; draws/s-idle must stay 0 — more tabs add
// followers, never a timer.
func BenchmarkTabsIdle(b *testing.B) {
	p := perfStart(b, 100)
	for range 2 {
		s, err := p.ag.CreateSession(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		var t *sessionTab
		p.w.app.QueueUpdate(func() { t = p.w.newTab(); p.w.tabs = append(p.w.tabs, t) })
		p.w.showSession(t, backendOf(p.ag), s.ID, false)
	}
	p.w.app.QueueUpdate(func() { p.w.toggleSplit() })
	p.settle(b)
	shows0, cpu0, start := p.s.shows.Load(), perfCPU(b), time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(p.s.shows.Load()-shows0)/secs, "draws/s-idle")
	b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/secs, "cpu-ms/s-idle")
}
