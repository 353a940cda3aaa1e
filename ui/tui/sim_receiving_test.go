package tui

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider"
	"pincer/core/provider/providertest"
)

// gatedProvider streams a tool call's start, then waits for release before
// the call's arguments are complete; later requests answer "Done.".
type gatedProvider struct {
	release chan struct{}
	calls   int
}

func (p *gatedProvider) Name() string { return "fake" }

func (p *gatedProvider) Stream(ctx context.Context, _ provider.Request) iter.Seq2[provider.Event, error] {
	p.calls++
	first := p.calls == 1
	return func(yield func(provider.Event, error) bool) {
		if !first {
			for _, ev := range providertest.TextEvents("Done.") {
				if !yield(ev, nil) {
					return
				}
			}
			return
		}
		if !yield(providertest.ToolCallStart("c1", "Read"), nil) {
			return
		}
		select {
		case <-p.release:
		case <-ctx.Done():
			yield(provider.Event{}, ctx.Err())
			return
		}
		for _, ev := range providertest.ToolCalls(providertest.ToolCall("c1", "Read", `{"file_path":"a.txt"}`)).Events {
			if !yield(ev, nil) {
				return
			}
		}
	}
}

// Found 13 (issue 12): nothing showed for ~3 s while a tool call's arguments
// streamed in. The call shows at once, with its name, in the timeline and
// the transcript, and its start replaces it in place.
func TestReceivingArgumentsShowsTheCallAtOnce(t *testing.T) {
	prov := &gatedProvider{release: make(chan struct{})}
	b := startBench(t, 160, 50, Options{})
	ag, root := newTestAgent(t, prov)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ag.CreateSession(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	b.w.Attach(backendOf(ag), s.ID)
	b.waitText(shortID(s.ID) + " · idle")
	b.send("read it")
	screen := b.waitText("2 Timeline (1)", "Read … receiving arguments")
	inTranscript := false // at the transcript's left edge
	for _, l := range lines(screen) {
		inTranscript = inTranscript || strings.HasPrefix(l, "│… Read … receiving arguments")
	}
	if !inTranscript {
		t.Errorf("not in the transcript:\n%s", screen)
	}
	if _, x := rowOf(screen, "││… Read … receiving arguments"); x < 90 { // the timeline, on the right
		t.Errorf("not in the timeline:\n%s", screen)
	}
	close(prov.release)
	screen = b.waitText("Done.", "2 Timeline (1)")
	if strings.Contains(screen, "receiving arguments") {
		t.Errorf("the mark stayed after the call started:\n%s", screen)
	}
}
