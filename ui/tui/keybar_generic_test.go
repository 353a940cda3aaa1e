package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// TestGenericBarIdleAndRunning: idle, the key bar offers F1 help (first, so
// it fits at 80 columns) and no "Esc cancel the running turn"; while a turn
// runs, the cancel key is back.
func TestGenericBarIdleAndRunning(t *testing.T) {
	w, err := New(Options{Screen: tcell.NewSimulationScreen("UTF-8"), Theme: themes.Dark(), Model: "fake/m", Mode: "default"})
	if err != nil {
		t.Fatal(err)
	}
	idle := fitKeyBar(nil, w.genericBar(), 79)
	if !strings.Contains(idle, "F1 help") || strings.Contains(idle, "cancel the running turn") {
		t.Errorf("idle key bar at 80 columns: %q", idle)
	}
	w.model.Status.Turn = TurnRunning
	running := fitKeyBar(nil, w.genericBar(), 199)
	if !strings.Contains(running, "Esc cancel the running turn") || !strings.Contains(running, "F1 help") {
		t.Errorf("key bar while a turn runs: %q", running)
	}
}
