package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/app"
	"pincer/core/event"
)

// TestTimeTravelCountsTheCodeRewind: after a workbench code rewind to before
// turn 2 (g.txt and h.txt taken away), time travel's "workspace since the
// start" at the session's last step shows only turn 1's f.txt, as `pincer
// sessions diff` (app.SessionDiff) does; at the step before the rewind it
// still shows all three files; the rewind's timeline row's own diff is the
// restore.
func TestTimeTravelCountsTheCodeRewind(t *testing.T) {
	b, _, origin, root := rewindSession(t)
	b.slash("/rewind 2")
	b.waitText("to before turn 2: what to restore?")
	b.typeText("3")
	b.enter()
	b.waitText("3 Approvals (1)", "? Rewind: restore 2 files to before turn 2")
	b.key(tcell.KeyRune, '3', tcell.ModAlt)
	time.Sleep(approvalGrace + 100*time.Millisecond) // a person reads the request first
	b.typeText("y")
	b.waitText("rewind: restored 2 files to before turn 2")
	if readFile(root, "g.txt") != "<absent>" || readFile(root, "f.txt") != "eff\n" {
		t.Fatalf("g.txt %q f.txt %q", readFile(root, "g.txt"), readFile(root, "f.txt"))
	}
	whole, err := app.SessionDiff(t.Context(), b.backend().Store, origin, 0)
	if err != nil || !strings.Contains(whole, "+eff") || strings.Contains(whole, "gee") || strings.Contains(whole, "aitch") {
		t.Fatalf("sessions diff after the rewind: %q, %v", whole, err)
	}

	own, err := b.backend().Agent.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(b.backend(), own.ID)
	b.waitText(shortID(own.ID) + " · idle")
	b.key(tcell.KeyCtrlO, 0, tcell.ModNone)
	b.waitText("the first prompt")
	b.typeText("the first prompt")
	b.key(tcell.KeyCtrlB, 0, tcell.ModNone)
	last, _ := b.backend().Store.LastEventSequence(t.Context(), origin)
	b.waitText(fmt.Sprintf("seq %d/%d", last, last), "workspace since the start")
	s := b.waitFor("the diff at the last step", func(s string) bool { return strings.Contains(diffColumn(s), "+eff") })
	if d := diffColumn(s); strings.Contains(d, "gee") || strings.Contains(d, "aitch") {
		t.Fatalf("the workspace since the start at the last step still shows turn 2's files:\n%s", d)
	}
	evs, err := b.backend().Log().Read(t.Context(), origin, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var restored uint64 // the rewind's checkpoint.recorded: the log's last
	for _, ev := range evs {
		if ev.Type == event.CheckpointRecorded {
			restored = ev.Sequence
		}
	}
	for range last - restored + 1 { // to the step before it
		b.typeText("[")
	}
	b.waitText(fmt.Sprintf("seq %d/%d", restored-1, last))
	b.waitFor("the diff before the restore", func(s string) bool {
		d := diffColumn(s)
		return strings.Contains(d, "+eff") && strings.Contains(d, "+gee") && strings.Contains(d, "+aitch")
	})
}

// diffColumn is the text of the diff pane's column whatever the frame's
// width: the rows from its title down, from the title's column on.
func diffColumn(screen string) string {
	var out strings.Builder
	at := -1
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if at < 0 {
			if i := strings.Index(l, "4 Diff"); i >= 0 {
				at = len([]rune(l[:i]))
			}
		}
		if at >= 0 && len(r) > at {
			out.WriteString(string(r[at:]) + "\n")
		}
	}
	return out.String()
}
