//go:build unix

package tui

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/app"
	"pincer/persist"
	"pincer/persist/badger"
	"pincer/persist/longsession"
	"pincer/persist/remote"
	"pincer/sandbox"
	"pincer/themes"
	"pincer/tools"
)

// The resume benchmarks (issue 19): `pincer --continue` on a long session,
// in the process — a workbench on a 200×50 simulation screen attached to a
// session stored in Badger on disk, opened directly or reached through the
// store daemon's wire (a remote.Server over the same Badger store, on a
// Unix socket in this process).

// doneScreen is a simulation screen that notes when a frame first shows
// every one of want (each within one row).
type doneScreen struct {
	tcell.SimulationScreen
	want []string
	once sync.Once
	done chan struct{}
}

func (s *doneScreen) Show() {
	s.SimulationScreen.Show()
	select {
	case <-s.done:
		return
	default:
	}
	cells, w, h := s.GetContents()
	rows := make([]string, h)
	var b strings.Builder
	for y := 0; y < h; y++ {
		b.Reset()
		for x := 0; x < w; x++ {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteString(string(r))
			} else {
				b.WriteByte(' ')
			}
		}
		rows[y] = b.String()
	}
	screen := strings.Join(rows, "\n")
	for _, want := range s.want {
		if !strings.Contains(screen, want) {
			return
		}
	}
	s.once.Do(func() { close(s.done) })
}

// resumeStore is a Badger store in a temporary directory, used directly
// ("direct") or through a remote.Server on a socket ("daemon").
func resumeStore(b *testing.B, via string) persist.Store {
	b.Helper()
	dir := b.TempDir()
	direct, err := badger.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { direct.Close() })
	if via == "direct" {
		return direct
	}
	sockDir, err := os.MkdirTemp("", "prs")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(sockDir) })
	socket := filepath.Join(sockDir, "s")
	l, err := net.Listen("unix", socket)
	if err != nil {
		b.Fatal(err)
	}
	srv := remote.NewServer(direct, "bench", "")
	go srv.Serve(l)
	b.Cleanup(func() { srv.Close() })
	c, err := remote.Open(context.Background(), remote.Options{Socket: socket})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkResume measures the time from a workbench's start to its first
// complete screen (the status line names the session and, for a resumed
// one, the transcript shows the last answer's last line): a fresh start
// (a new, empty session) against `--continue` on a finished session of
// 2,000 and of 10,000 messages (persist/longsession: 834 and 4,167 turns,
// 6,167 and 30,835 events), each through the daemon's wire and with the
// store opened directly. One op is New, Run, Attach (as cmd_tui.go does
// once the store is open) until that frame, in this warm process.
// x-fresh is the op's time as a multiple of the fresh start's in the same
// run (the goal: ≤ 1.5, flat in session length).
func BenchmarkResume(b *testing.B) {
	for _, via := range []string{"daemon", "direct"} {
		b.Run(via, func(b *testing.B) {
			store := resumeStore(b, via)
			ws, err := sandbox.NewWorkspace(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			ag, err := agent.New(agent.Config{Store: store, Tools: tools.Default(), Workspace: ws, ModelName: "fake/m"})
			if err != nil {
				b.Fatal(err)
			}
			be := &app.Backend{Agent: ag, Store: store}
			var fresh time.Duration
			for _, n := range []int{0, 2000, 10000} {
				name := "fresh"
				if n > 0 {
					name = fmt.Sprintf("messages=%d", n)
				}
				var sid, last string
				if n == 0 {
					s, err := ag.CreateSession(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					sid = s.ID
				} else {
					res, err := longsession.Write(context.Background(), store, longsession.Options{
						ID: fmt.Sprintf("20261202-000000-%08d", n), Cwd: ws.Root(), Messages: n})
					if err != nil {
						b.Fatal(err)
					}
					lines := strings.Split(res.LastText, "\n")
					sid, last = res.Session.ID, lines[len(lines)-1]
				}
				b.Run(name, func(b *testing.B) {
					want := []string{sid[len(sid)-8:]}
					if last != "" {
						want = append(want, last)
					}
					for b.Loop() {
						resumeOnce(b, be, sid, want)
					}
					per := b.Elapsed() / time.Duration(b.N)
					if n == 0 {
						fresh = per
					} else if fresh > 0 {
						b.ReportMetric(float64(per)/float64(fresh), "x-fresh")
					}
				})
			}
		})
	}
}

// resumeOnce starts a workbench, attaches sid and waits for a frame showing
// want; then stops it with the benchmark's timer stopped.
func resumeOnce(b *testing.B, be Backend, sid string, want []string) {
	s := &doneScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), want: want, done: make(chan struct{})}
	w, err := New(Options{Screen: s, Theme: themes.Dark(), Model: "fake/m", Mode: "default"})
	if err != nil {
		b.Fatal(err)
	}
	s.SetSize(200, 50)
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	w.Attach(be, sid)
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		b.Fatal("no complete screen within 60 s")
	}
	b.StopTimer()
	w.Stop()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
}
