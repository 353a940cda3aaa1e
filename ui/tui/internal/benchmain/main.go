// Command benchmain is a helper of ui/tui's BenchmarkStartToFirstFrame, not
// part of pincer. It starts the workbench the way `pincer` does — New, Run,
// and a store that takes 30 ms to open in the background before Attach — on a
// 200×50 simulation screen in the current directory, prints
//
//	first-frame <ns from main to the first completed frame> <attached before it>
//
// when tview shows the first frame, and exits. The benchmark measures the
// whole process (exec, runtime and package init included) around it.
package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/themes"
	"pincer/ui/tui"
)

// frameScreen closes first when tview shows its first frame (every tview
// draw ends with Show).
type frameScreen struct {
	tcell.SimulationScreen
	once  sync.Once
	first chan struct{}
}

func (s *frameScreen) Show() {
	s.SimulationScreen.Show()
	s.once.Do(func() { close(s.first) })
}

func main() {
	start := time.Now()
	sim := &frameScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), first: make(chan struct{})}
	w, err := tui.New(tui.Options{Screen: sim, Theme: themes.Dark(), Model: "fake/m", Mode: "default"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sim.SetSize(200, 50)
	var attached atomic.Bool
	go func() { // the store: ~30 ms to open (Badger measured 15–40 ms), then the agent
		time.Sleep(30 * time.Millisecond)
		dir, _ := os.Getwd()
		b, id, err := app.ScratchBackend(context.Background(), dir, "fake/m")
		if err != nil {
			w.SetStoreState(err.Error())
			return
		}
		attached.Store(true)
		w.Attach(b, id)
	}()
	done := make(chan error, 1)
	go func() { done <- w.Run() }()
	<-sim.first
	fmt.Printf("first-frame %d %t\n", time.Since(start).Nanoseconds(), attached.Load())
	w.Stop()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
