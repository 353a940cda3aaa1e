package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// TestSendFollowsTranscript (issue 12 Found 4): at 80x24, scrolled up with
// PgUp ×8 after a long answer, sending a prompt jumps to the bottom and
// follows the new answer to its end, as Claude Code and Crush; scrolled up
// again while nothing new arrives shows no marker.
func TestSendFollowsTranscript(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&long, "answer line %d\n\n", i)
	}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.Text(long.String()),
		providertest.Text("the second answer ends here"),
		{Events: lateText(long.String(), 15), Gap: 60 * time.Millisecond},
	}}
	b, _, _, _ := attached(t, 80, 24, prov)
	b.send("tell me a lot")
	b.waitModel("the turn to end", func(m *Model) bool { return m.Status.Turn == TurnCompleted })
	b.waitText("answer line 120")
	for i := 0; i < 8; i++ {
		b.key(tcell.KeyPgUp, 0, tcell.ModNone)
	}
	s := b.waitFor("the transcript to scroll up", func(s string) bool { return !strings.Contains(s, "answer line 120") })
	if strings.Contains(s, "new output") {
		t.Fatalf("the marker shows with nothing new:\n%s", s)
	}
	b.send("and now?")
	b.waitModel("the second turn to end", func(m *Model) bool {
		return m.Status.Turn == TurnCompleted && prov.Calls() == 2
	})
	b.waitText("the second answer ends here")
	if s := b.text(); strings.Contains(s, "new output") {
		t.Fatalf("the marker shows while following:\n%s", s)
	}
	// Scrolled up while the answer streams: the marker says output arrived below.
	b.send("stream it")
	b.waitText("answer line 120")
	for i := 0; i < 4; i++ {
		b.key(tcell.KeyPgUp, 0, tcell.ModNone)
	}
	b.waitText("↓ new output — G/End")
	b.waitModel("the third turn to end", func(m *Model) bool {
		return m.Status.Turn == TurnCompleted && prov.Calls() == 3
	})
}

// lateText is a streamed answer: head at once, then n more lines one event
// each (the step's Gap apart).
func lateText(head string, n int) []provider.Event {
	evs := []provider.Event{{Type: provider.EventTextDelta, Text: head}}
	for i := 1; i <= n; i++ {
		evs = append(evs, provider.Event{Type: provider.EventTextDelta, Text: fmt.Sprintf("late line %d\n\n", i)})
	}
	return append(evs, provider.Event{Type: provider.EventDone, FinishReason: "stop"})
}
