package app

import (
	"context"
	"testing"

	"pincer/core/event"
)

// A conversation rewind's branch log starts with its session.created
// (naming the origin and counting the copies), then the origin's events of
// the turns it keeps — same types, turn IDs, payloads and timestamps, none
// of turn 2, no usage and no checkpoint.recorded — then its session.rewound.
func TestBranchInheritsTheOriginsEvents(t *testing.T) {
	r := newRewindRig(t)
	ctx := context.Background()
	res, err := Rewind(ctx, r.be.Store, r.id, RewindOptions{Turn: 2, Conversation: true})
	if err != nil {
		t.Fatal(err)
	}
	origin, _ := r.be.Store.ListEvents(ctx, r.id, 0, 0)
	branch, err := r.be.Store.ListEvents(ctx, res.Branch, 0, 0)
	if err != nil || len(branch) < 3 {
		t.Fatalf("branch events %d, %v", len(branch), err)
	}
	var created event.SessionCreatedData
	if err := branch[0].Decode(&created); err != nil || branch[0].Type != event.SessionCreated ||
		created.BranchOf != r.id || created.BranchTurn != 2 || created.Inherited != len(branch)-2 {
		t.Fatalf("first event %s %+v (%v); %d events", branch[0].Type, created, err, len(branch))
	}
	if last := branch[len(branch)-1]; last.Type != event.SessionRewound {
		t.Fatalf("last event %s", last.Type)
	}
	turn1 := origin[1].TurnID // the origin's turn.started of turn 1
	var want []event.Event
	for _, ev := range origin {
		if ev.TurnID == turn1 && ev.Type != event.UsageReported && ev.Type != event.CheckpointRecorded {
			want = append(want, ev)
		}
	}
	got := branch[1 : len(branch)-1]
	if len(got) != len(want) {
		t.Fatalf("%d events copied, want %d", len(got), len(want))
	}
	for i, ev := range got {
		w := want[i]
		if ev.SessionID != res.Branch || ev.Type != w.Type || ev.TurnID != turn1 || !ev.Timestamp.Equal(w.Timestamp) || string(ev.Data) != string(w.Data) {
			t.Errorf("copy %d: %s %s %s %v, want %s %s %v", i, ev.SessionID, ev.Type, ev.TurnID, ev.Timestamp, w.Type, w.TurnID, w.Timestamp)
		}
	}
}
