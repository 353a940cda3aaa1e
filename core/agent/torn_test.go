package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/provider/providertest"
	"pincer/persist"
	"pincer/persist/memory"
)

// tornStore is a real memory store whose transcript listing also reports one
// skipped record, as Badger and the daemon report a record a crash tore
// (persist.Store's contract: the readable messages and a *CorruptError).
type tornStore struct{ persist.Store }

func (s tornStore) ListMessages(ctx context.Context, id string) ([]message.Message, error) {
	msgs, err := s.Store.ListMessages(ctx, id)
	if err != nil {
		return msgs, err
	}
	return msgs, &persist.CorruptError{Kind: "message", SessionID: id, Count: 1}
}

// TestTornRecordWarning: a transcript with a skipped record still runs its
// turns, and says so once (the first turn of the process), not on every turn.
func TestTornRecordWarning(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("one"), providertest.Text("two")}}
	h := newHarnessWith(t, prov, tornStore{memory.New()}, Config{})
	h.submit(context.Background(), "first")
	h.submit(context.Background(), "second")
	var warned []string
	for _, ev := range h.events() {
		if ev.Type != event.Notice {
			continue
		}
		p, _ := ev.Payload()
		if n, ok := p.(event.NoticeData); ok && n.Source == "torn_record" {
			warned = append(warned, n.Level+": "+n.Message)
		}
	}
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "warning: 1 unreadable message record(s)") {
		t.Fatalf("torn-record notices = %q; want one warning", warned)
	}
}

// TestTornNotice: only a CorruptError with records skipped is a warning.
func TestTornNotice(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{persist.ErrNotFound, false},
		{&persist.CorruptError{Kind: "message", Count: 0}, false},
		{&persist.CorruptError{Kind: "message", SessionID: "s", Count: 3}, true},
	} {
		if _, got := tornNotice(c.err); got != c.want {
			t.Errorf("tornNotice(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
