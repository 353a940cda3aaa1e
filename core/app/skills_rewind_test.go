package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"pincer/core/memory"
	"pincer/core/provider/openai/openaitest"
)

// TestRewindWithdrawsTheLearnedSkill: a code rewind to before the turn a
// skill was learned from undoes that work, so its pending candidate is
// rejected (by "rewind", with why); a conversation rewind leaves it pending.
func TestRewindWithdrawsTheLearnedSkill(t *testing.T) {
	e := newLearnEnv(t)
	e.fake.Push(taskReplies(e.repo, echoDraft)...)
	ctx := context.Background()
	r := e.start(t)
	if _, err := r.Agent.SubmitTurn(ctx, r.SessionID, "write hi to out.txt and check it"); err != nil {
		t.Fatal(err)
	}
	e.fake.Push(openaitest.Reply{Text: "second"})
	if _, err := r.Agent.SubmitTurn(ctx, r.SessionID, "thanks"); err != nil {
		t.Fatal(err)
	}
	id := r.SessionID
	_ = r.Close()
	store, err := OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	pending := func() []memory.Candidate {
		cs, err := store.ListCandidates(ctx, memory.Filter{Kind: memory.KindSkill, Status: memory.StatusPending})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	if len(pending()) != 1 {
		t.Fatalf("pending skills %+v", pending())
	}
	if res, err := Rewind(ctx, store, id, RewindOptions{Turn: 2, Conversation: true}); err != nil || len(res.Withdrawn) != 0 || len(pending()) != 1 {
		t.Fatalf("conversation rewind: %+v %v; pending %+v", res, err, pending())
	}
	if res, err := Rewind(ctx, store, id, RewindOptions{Turn: 2, Code: true}); err != nil || len(res.Withdrawn) != 0 || len(pending()) != 1 {
		t.Fatalf("code rewind of a later turn: %+v %v; pending %+v", res, err, pending())
	}
	res, err := Rewind(ctx, store, id, RewindOptions{Turn: 1, Code: true})
	if err != nil || len(res.Withdrawn) != 1 {
		t.Fatalf("code rewind: %+v %v", res, err)
	}
	if _, err := os.Lstat(filepath.Join(e.repo, "out.txt")); !os.IsNotExist(err) {
		t.Errorf("out.txt not rewound: %v", err)
	}
	c, err := store.GetCandidate(ctx, res.Withdrawn[0])
	if err != nil || c.Status != memory.StatusRejected || c.DecidedBy != "rewind" || c.Reason == "" {
		t.Errorf("withdrawn candidate %+v, %v", c, err)
	}
	if len(pending()) != 0 {
		t.Errorf("still pending %+v", pending())
	}
}
