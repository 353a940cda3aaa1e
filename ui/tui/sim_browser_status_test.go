package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/ui/tui/browser"
)

// TestSessionsBrowserShowsStatus: the browser says which sessions run now (a
// live process holds the lease), which a process left mid-turn
// (interrupted), which failed, and explains its marks; a session in which
// no prompt was ever sent is not listed.
func TestSessionsBrowserShowsStatus(t *testing.T) {
	b, ag, _, root := attached(t, 200, 50, &providertest.Scripted{})
	ctx := t.Context()
	now := time.Now().UTC()
	for i, s := range []persist.Session{
		{ID: "20250101-000000-runnin01", Title: "held right now", Status: "running"},
		{ID: "20250101-000000-interr01", Title: "left mid-turn", Status: "running"},
		{ID: "20250101-000000-failed01", Title: "went wrong", Status: "failed"},
		{ID: "20250101-000000-noprom01", Title: "", Status: "idle"},
	} {
		s.Cwd, s.Model, s.CreatedAt, s.UpdatedAt = root, "fake/m", now, now.Add(-time.Duration(i+1)*time.Minute)
		if err := ag.Store().PutSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	// pid 1 is alive on every machine: a live holder.
	if ok, _, err := ag.Store().AcquireLease(ctx, "20250101-000000-runnin01", "pid:1/x host=h cmd=pincer run", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	b.key(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	s := b.waitText("Sessions (4)", "held right now", "left mid-turn", "went wrong", browser.Legend[:40])
	for title, status := range map[string]string{"held right now": "running", "left mid-turn": "interrupted", "went wrong": "failed"} {
		y, _ := rowOf(s, title)
		if y < 0 || !containsOn(s, y, status) {
			t.Errorf("%q is not shown %s:\n%s", title, status, s)
		}
	}
	if y, _ := rowOf(s, "(no prompt)"); y >= 0 {
		t.Errorf("a session without a prompt that is not this workbench's is listed:\n%s", s)
	}
	if y, _ := rowOf(s, "(this workbench)"); y < 0 || !containsOn(s, y, "▶") {
		t.Errorf("the live session without a prompt is not marked as this workbench's:\n%s", s)
	}
}

// containsOn reports whether row y of the screen holds text.
func containsOn(screen string, y int, text string) bool {
	lines := strings.Split(screen, "\n")
	return y >= 0 && y < len(lines) && strings.Contains(lines[y], text)
}
