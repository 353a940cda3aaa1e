//go:build unix

package tui

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/core/event"
	"pincer/persist"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/themes"
	"pincer/tools"
	"pincer/ui/tui/markdown"
)

// Workbench benchmarks (issue 3): the real workbench (New, Run, the pump,
// tview's event loop) on a 200×50 simulation screen. Frames are counted where
// tview completes them (every draw ends with Show); CPU is the process's
// user+system time (getrusage): log, pump, model, tview and Go runtime.

// perfScreen is a simulation screen that counts completed frames.
type perfScreen struct {
	tcell.SimulationScreen
	shows atomic.Int64
	once  sync.Once
	first chan struct{} // closed by the first Show
}

func (s *perfScreen) Show() {
	s.SimulationScreen.Show()
	s.shows.Add(1)
	s.once.Do(func() { close(s.first) })
}

// perfNew builds a workbench on a new perfScreen (not running yet).
func perfNew(tb testing.TB) (*Workbench, *perfScreen) {
	s := &perfScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), first: make(chan struct{})}
	w, err := New(Options{Screen: s, Theme: themes.Dark(), Model: "fake/m", Mode: "default"})
	if err != nil {
		tb.Fatal(err)
	}
	s.SetSize(200, 50) // after New's SetScreen, which resets the size
	return w, s
}

// perfAgent returns an agent over a memory store (no provider: no turn runs)
// and a fresh session.
func perfAgent(tb testing.TB) (*agent.Agent, string) {
	ws, err := sandbox.NewWorkspace(tb.TempDir())
	var ag *agent.Agent
	store := memory.New()
	if err == nil {
		ag, err = agent.New(agent.Config{Store: store, Tools: tools.Default(), Workspace: ws, ModelName: "fake/m"})
	}
	var s persist.Session
	if err == nil {
		s, err = ag.CreateSession(context.Background())
	}
	if err != nil {
		tb.Fatal(err)
	}
	testBackends.Store(ag, &app.Backend{Agent: ag, Store: store})
	return ag, s.ID
}

// perfBench is a running workbench attached to a session.
type perfBench struct {
	w     *Workbench
	s     *perfScreen
	ag    *agent.Agent
	sid   string
	seq   uint64 // the session's last sequence
	lines int    // transcript lines of the history (spacer rows not counted)
}

// perfStart runs a workbench until the benchmark ends, attached to a session
// that holds turns finished turns (a prompt, a 49-line markdown answer, a
// Bash call whose 47 lines of output stay collapsed, a second answer: 100
// transcript lines at the transcript's 116 content columns), and waits until
// all of it is drawn.
func perfStart(tb testing.TB, turns int) *perfBench {
	tb.Helper()
	w, s := perfNew(tb)
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	tb.Cleanup(func() { w.Stop(); <-done })
	ag, sid := perfAgent(tb)
	p := &perfBench{w: w, s: s, ag: ag, sid: sid}
	var md, out strings.Builder
	md.WriteString("## Step\n\n")
	for k := 0; k < 47; k++ {
		fmt.Fprintf(&md, "- item %d with **bold** and `code` text\n", k)
		fmt.Fprintf(&out, "main.go:%d: some output line\n", k)
	}
	p.lines = turns * (2*len(markdown.Render(md.String(), 116, themes.Dark())) + 2)
	for i := 0; i < turns; i++ {
		t, call := fmt.Sprintf("t%d", i), fmt.Sprintf("c%d", i)
		p.emit(tb, event.TurnStarted, t, event.TurnStartedData{Input: "Please do step " + t})
		p.emit(tb, event.MessageCompleted, t, event.MessageCompletedData{MessageID: "a" + t, Role: "assistant", Text: md.String()})
		p.emit(tb, event.ToolStarted, t, event.ToolStartedData{ToolCallID: call, Name: "Bash", Input: `{"command":"go test"}`, Summary: "go test ./..."})
		p.emit(tb, event.ToolCompleted, t, event.ToolCompletedData{ToolCallID: call, Name: "Bash", Output: out.String(), DurationMs: 1200})
		p.emit(tb, event.MessageCompleted, t, event.MessageCompletedData{MessageID: "b" + t, Role: "assistant", Text: md.String()})
		p.emit(tb, event.TurnCompleted, t, event.TurnCompletedData{StopReason: "end_turn"})
	}
	<-s.first
	w.Attach(backendOf(ag), sid)
	p.settle(tb)
	return p
}

// emit logs one event of the session.
func (p *perfBench) emit(tb testing.TB, t event.Type, turn string, payload any) {
	ev, err := p.ag.Log().Emit(context.Background(), t, p.sid, turn, payload)
	if err != nil {
		tb.Fatal(err)
	}
	p.seq = ev.Sequence
}

// settle waits until the model has applied every logged event and then no
// frame has been drawn for 100 ms (the pump's last coalesced frame is done).
func (p *perfBench) settle(tb testing.TB) {
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var got uint64
		p.w.app.QueueUpdate(func() { got = p.w.model.LastSequence })
		if got >= p.seq {
			break
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the model reached sequence %d of %d", got, p.seq)
		}
	}
	for n := p.s.shows.Load(); ; n = p.s.shows.Load() {
		time.Sleep(100 * time.Millisecond)
		if p.s.shows.Load() == n {
			return
		}
	}
}

// perfCPU is the process's user+system CPU time so far.
func perfCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFrame100kLines measures one full frame of the whole workbench
// (screen clear; transcript, timeline, approvals, diff, input, status line,
// help bar; Show) on 200×50 with a session replayed from the log: 100 turns
// (10,000 transcript lines, 200 assistant messages, 100 tool calls) and
// 1,000 turns (100,000 lines, 2,000 messages, 1,000 tool calls). One op is
// the pump's own redraw, drawFrame: syncFrame and the draw, queued on the
// event loop and awaited.
//   - static: nothing changed since the last frame.
//   - delta: first a message.delta of a message streaming at the end of the
//     transcript is posted to the pump's inbox, as the pump's follower does,
//     and the frame applies it on the event loop, so the frame also
//     appends it and re-wraps the block's unfinished tail.
//
// Compare the sizes: the frame must not grow with the session's length.
func BenchmarkFrame100kLines(b *testing.B) {
	for _, turns := range []int{100, 1000} {
		b.Run(fmt.Sprintf("lines=%dk", turns/10), func(b *testing.B) {
			p := perfStart(b, turns)
			b.Run("static", func(b *testing.B) {
				for b.Loop() {
					p.w.drawFrame()
				}
				b.ReportMetric(float64(p.lines), "transcript-lines")
			})
			b.Run("delta", func(b *testing.B) {
				for i := 1; b.Loop(); i++ {
					d := " token"
					if i%40 == 0 {
						d = ".\n\nNext paragraph"
					}
					ev, err := event.New(event.MessageDelta, p.sid, "live", event.MessageDeltaData{MessageID: "live", Delta: d, Kind: "text"})
					if err != nil {
						b.Fatal(err)
					}
					p.seq++ // past the log's end: the follower has nothing newer
					ev.Sequence = p.seq
					p.w.pump.post(func() { p.w.applyEvent(p.w.key, ev) })
					p.w.drawFrame()
				}
				b.ReportMetric(float64(p.lines), "transcript-lines")
			})
		})
	}
}

// BenchmarkStreamDeltas streams message.delta events (" token", a paragraph
// break every 40) through the real path: the event log (JSON encoding, the
// memory store), the pump's follower (read, decode, Model.Apply), the
// coalescer, syncFrame and the draw, into a 10-turn session. One op is one
// second of a 1,000-deltas/s stream: a new message of 1,000 deltas (~7.6 KB)
// and its message.completed. (A new message per op keeps the cost per op
// independent of b.N: Model.messageDelta copies the message's whole text on
// every delta, so one ever-growing message costs more per delta as it grows.)
//   - paced: one delta per millisecond of wall time, as a fast model would
//     send them; ns/op is then ~1 s.
//   - burst: as fast as the log takes them.
//
// cpu-ms/1k-deltas is the process's CPU per op (paced: per second of stream,
// so 10 = 1% of a core), the producer included, measured until the last
// frame; draws/1k-deltas counts completed frames (the pump allows 30/s).
func BenchmarkStreamDeltas(b *testing.B) {
	for _, paced := range []bool{true, false} {
		name := map[bool]string{true: "paced", false: "burst"}[paced]
		b.Run(name, func(b *testing.B) {
			p := perfStart(b, 10)
			shows0, cpu0, ops := p.s.shows.Load(), perfCPU(b), 0
			for b.Loop() {
				ops++
				msg, start := fmt.Sprintf("m%d", ops), time.Now()
				var text strings.Builder
				for i := 0; i < 1000; i++ {
					if d := time.Until(start.Add(time.Duration(i) * time.Millisecond)); paced && d > 0 {
						time.Sleep(d)
					}
					d := " token"
					if i%40 == 39 {
						d = ".\n\nNext paragraph"
					}
					text.WriteString(d)
					p.emit(b, event.MessageDelta, "live", event.MessageDeltaData{MessageID: msg, Delta: d, Kind: "text"})
				}
				p.emit(b, event.MessageCompleted, "live", event.MessageCompletedData{MessageID: msg, Role: "assistant", Text: text.String()})
			}
			p.settle(b) // the last frames belong to the stream
			b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/float64(ops), "cpu-ms/1k-deltas")
			b.ReportMetric(float64(p.s.shows.Load()-shows0)/float64(ops), "draws/1k-deltas")
		})
	}
}

// BenchmarkStartToFirstFrame measures the time to the first completed frame
// while the store takes 30 ms to open in the background (then the session is
// attached, as cmd_tui.go does): the first frame must not wait for it, so
// anything near 30 ms means it did. attached-first/op is the share of starts
// whose first frame came after Attach began (want 0).
//   - in-process: New + Run on a simulation screen in this warm process.
//   - process: exec of internal/benchmain (built before timing), which does
//     the same; adds exec, the Go runtime and package init (chroma's lexer
//     registry among it). main-ms is main → first frame, as the helper saw it.
func BenchmarkStartToFirstFrame(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		ag, sid := perfAgent(b)
		late := 0
		for b.Loop() {
			w, s := perfNew(b)
			var attached atomic.Bool
			open := time.AfterFunc(30*time.Millisecond, func() { attached.Store(true); w.Attach(backendOf(ag), sid) })
			done := make(chan error, 1)
			go func() { done <- w.Run() }()
			<-s.first
			b.StopTimer()
			open.Stop()
			if attached.Load() {
				late++
			}
			w.Stop()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(late)/float64(b.N), "attached-first/op")
	})
	b.Run("process", func(b *testing.B) {
		bin := filepath.Join(b.TempDir(), "benchmain")
		if out, err := exec.Command("go", "build", "-o", bin, "pincer/ui/tui/internal/benchmain").CombinedOutput(); err != nil {
			b.Skipf("build the helper: %v\n%s", err, out)
		}
		dir := b.TempDir()
		late, mainNs := 0, int64(0)
		for b.Loop() {
			cmd := exec.Command(bin)
			cmd.Dir = dir
			stdout, err := cmd.StdoutPipe()
			if err == nil {
				err = cmd.Start()
			}
			if err != nil {
				b.Fatal(err)
			}
			line, _ := bufio.NewReader(stdout).ReadString('\n')
			b.StopTimer()
			var ns int64
			var att bool
			_, err = fmt.Sscanf(line, "first-frame %d %t", &ns, &att)
			if werr := cmd.Wait(); err != nil || werr != nil {
				b.Fatalf("helper said %q: %v; exit: %v", line, err, werr)
			}
			mainNs += ns
			if att {
				late++
			}
			b.StartTimer()
		}
		b.ReportMetric(float64(mainNs)/1e6/float64(b.N), "main-ms")
		b.ReportMetric(float64(late)/float64(b.N), "attached-first/op")
	})
}

// BenchmarkIdle leaves a running workbench (a 100-turn, 10,000-line session,
// fully drawn) alone; one op is one second of nothing happening. It reports
// frames drawn and process CPU per idle second: the pump has no timer, so
// both should be ~0 (a peer TUI idles at ~17 cpu-ms/s, LIBRARY-NOTES).
func BenchmarkIdle(b *testing.B) {
	p := perfStart(b, 100)
	shows0, cpu0, start := p.s.shows.Load(), perfCPU(b), time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(p.s.shows.Load()-shows0)/secs, "draws/s-idle")
	b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/secs, "cpu-ms/s-idle")
}

// BenchmarkRunningClock is BenchmarkIdle with a turn running that streams
// nothing (waiting on a model, an approval or a long command): one op is one
// second. The status line's clock redraws once a second, so draws/s-running
// should be ~1 (and cpu-ms/s-running one frame's worth).
func BenchmarkRunningClock(b *testing.B) {
	p := perfStart(b, 100)
	p.emit(b, event.TurnStarted, "live", event.TurnStartedData{Input: "wait"})
	p.settle(b)
	shows0, cpu0, start := p.s.shows.Load(), perfCPU(b), time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(p.s.shows.Load()-shows0)/secs, "draws/s-running")
	b.ReportMetric(float64((perfCPU(b)-cpu0).Microseconds())/1000/secs, "cpu-ms/s-running")
}
