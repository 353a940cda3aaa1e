package app

import (
	"context"
	"strings"
	"testing"

	"pincer/core/event"
)

// A headless code rewind's restore is a checkpoint.recorded event of the
// session: the diff up to the last one the log names (the time travel's
// start-to-step at the last step) is the whole session's, `pincer sessions
// diff`'s — turn 1's f.txt only once turn 2's files are restored away.
func TestRewindRecordsItsRestore(t *testing.T) {
	r := newRewindRig(t)
	ctx := context.Background()
	if _, err := Rewind(ctx, r.be.Store, r.id, RewindOptions{Turn: 2, Code: true}); err != nil {
		t.Fatal(err)
	}
	evs, err := r.be.Store.ListEvents(ctx, r.id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var through uint64
	for _, ev := range evs {
		if ev.Type != event.CheckpointRecorded {
			continue
		}
		var d event.CheckpointRecordedData
		if err := ev.Decode(&d); err != nil {
			t.Fatal(err)
		}
		through = d.Seq
	}
	atEnd, err := SessionDiffOf(ctx, r.be.Store, r.id, DiffSpan{Through: through})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := SessionDiff(ctx, r.be.Store, r.id, 0)
	if err != nil || atEnd != whole || !strings.Contains(whole, "+eff") || strings.Contains(whole, "gee") {
		t.Fatalf("at the log's last checkpoint:\n%s\nthe whole session (%v):\n%s", atEnd, err, whole)
	}
}
