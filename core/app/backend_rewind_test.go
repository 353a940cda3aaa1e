package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/agent"
	"pincer/core/checkpoint"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// rewindRig is a Backend whose agent records checkpoints, after two turns:
// turn 1 Writes f.txt, turn 2 Writes g.txt and h.txt.
type rewindRig struct {
	be   *Backend
	prov *providertest.Scripted
	root string
	id   string
	reqs <-chan event.Event // the session's permission.requested events, from now
}

func newRewindRig(t *testing.T) *rewindRig {
	t.Helper()
	store, q := memory.New(), NewApprovalQueue()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rec, err := checkpoint.New(store, ws.Root(), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	write := func(id, name, content string) providertest.Step {
		return providertest.ToolCalls(providertest.ToolCall(id, "Write", `{"file_path":"`+name+`","content":"`+content+`"}`))
	}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		write("c1", "f.txt", "eff\\n"), providertest.Text("one done"),
		providertest.ToolCalls(providertest.ToolCall("c2", "Write", `{"file_path":"g.txt","content":"gee\n"}`),
			providertest.ToolCall("c3", "Write", `{"file_path":"h.txt","content":"aitch\n"}`)),
		providertest.Text("two done"),
		providertest.Text("branch answer"),
	}}
	ag, err := agent.New(agent.Config{Store: store, Provider: prov, Model: "m", ModelName: "fake/m",
		Tools: tools.Default(), Workspace: ws, SystemPrompt: "test", PermissionMode: permission.ModeAcceptEdits,
		Approver: q, DeltaInterval: time.Millisecond, Checkpoints: rec})
	if err != nil {
		t.Fatal(err)
	}
	be := &Backend{Agent: ag, Store: store, Approvals: q}
	ctx := context.Background()
	s, err := ag.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"the first prompt", "the second prompt"} {
		if res, err := be.Submit(ctx, s.ID, p); err != nil || res.Outcome != agent.OutcomeCompleted {
			t.Fatalf("turn %q: %+v %v", p, res, err)
		}
	}
	last, _ := store.LastEventSequence(ctx, s.ID)
	reqs := make(chan event.Event, 8)
	fctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	go be.Log().Follow(fctx, s.ID, last, func(ev event.Event) error {
		if ev.Type == event.PermissionRequested {
			reqs <- ev
		}
		return nil
	})
	return &rewindRig{be: be, prov: prov, root: ws.Root(), id: s.ID, reqs: reqs}
}

// next is the next rewind request, its payload.
func (r *rewindRig) next(t *testing.T) event.PermissionRequestedData {
	t.Helper()
	ev := <-r.reqs
	var d event.PermissionRequestedData
	if err := ev.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

// resolve answers the request id once its approver holds it: the request's
// event is emitted before Approve registers it (askRewind), and an answer
// given in between is kept for Approve yet reported as ErrNoSuchRequest (the
// queue's early answer, which a subagent's remote path relies on). Retrying
// on that error answered twice and failed for 5 s (a CI flake of
// TestRewindSessionDenyAndForce), so it waits for Waiting, then answers once.
func (r *rewindRig) resolve(id string, a permission.Behavior, scope permission.Scope, reason string) error {
	q := r.be.Approvals
	for i := 0; i < 1000 && !q.Waiting(id); i++ {
		time.Sleep(5 * time.Millisecond)
	}
	return r.be.Resolve(id, a, scope, reason)
}

func (r *rewindRig) read(name string) string {
	b, err := os.ReadFile(filepath.Join(r.root, name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// The workbench's rewind of code and conversation: the first request shows
// the diff and names the hand-edited file, which it keeps; the second,
// louder one puts the hand edit's loss to the person, denied here; the
// branch's next request lacks the rewound turn, the origin still lists it.
func TestRewindSessionAsksAndKeepsHandEdits(t *testing.T) {
	r := newRewindRig(t)
	os.WriteFile(filepath.Join(r.root, "h.txt"), []byte("by hand\n"), 0o644)
	type result struct {
		out RewindOutcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := r.be.RewindSession(context.Background(), r.id, RewindChoice{Turn: 2, Code: true, Conversation: true})
		done <- result{out, err}
	}()
	first := r.next(t)
	if first.Name != RewindTool || first.Summary != "Rewind: restore 2 files to before turn 2" ||
		!strings.Contains(first.Reason, "h.txt: modified since") ||
		!strings.Contains(first.Diff, "diff --git a/g.txt b/g.txt\ndeleted file mode 100644") ||
		!strings.Contains(first.Diff, "# h.txt: changed outside pincer since the checkpoint (modified since)") {
		t.Fatalf("first request: %+v", first)
	}
	if r.read("g.txt") != "gee\n" {
		t.Fatal("the rewind changed a file before it was allowed")
	}
	if err := r.resolve(first.RequestID, permission.Allow, permission.ScopeOnce, ""); err != nil {
		t.Fatal(err)
	}
	second := r.next(t)
	if !strings.HasPrefix(second.Summary, "Rewind: OVERWRITE 1 file changed outside pincer") || !strings.Contains(second.Diff, "-by hand\n") ||
		strings.Contains(second.Diff, "g.txt") {
		t.Fatalf("second request: %+v", second)
	}
	if _, err := os.Lstat(filepath.Join(r.root, "g.txt")); !os.IsNotExist(err) {
		t.Errorf("g.txt not removed once the first request was allowed: %v", err)
	}
	if err := r.resolve(second.RequestID, permission.Deny, permission.ScopeOnce, "mine"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil || res.out.Branch == "" || fmt.Sprint(res.out.Restored) != "[g.txt]" || len(res.out.Kept) != 1 {
		t.Fatalf("outcome %+v %v", res.out, res.err)
	}
	if r.read("h.txt") != "by hand\n" || r.read("f.txt") != "eff\n" {
		t.Fatalf("h.txt %q f.txt %q", r.read("h.txt"), r.read("f.txt"))
	}
	ctx := context.Background()
	if _, err := r.be.Submit(ctx, res.out.Branch, "the branch prompt"); err != nil {
		t.Fatal(err)
	}
	last := fmt.Sprintf("%+v", r.prov.Request(r.prov.Calls()-1).Messages)
	if strings.Contains(last, "the second prompt") || !strings.Contains(last, "the first prompt") || !strings.Contains(last, "the branch prompt") {
		t.Fatalf("the branch's request: %s", last)
	}
	list, err := r.be.Sessions(ctx, 0)
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions %+v %v", list, err)
	}
	evs, _ := r.be.Log().Read(ctx, r.id, 0, 0)
	var rewound, audit int
	for _, ev := range evs {
		if ev.Type == event.SessionRewound {
			rewound++
		}
	}
	entries, _ := r.be.Store.ListAudit(ctx, r.id, 0)
	for _, e := range entries {
		if e.Tool == RewindTool {
			audit++
		}
	}
	if rewound != 1 || audit != 2 {
		t.Errorf("session.rewound events %d (want 1), audit entries %d (want 2)", rewound, audit)
	}
}

// Denying the first request changes nothing, not even the conversation;
// allowing both overwrites the hand edit.
func TestRewindSessionDenyAndForce(t *testing.T) {
	r := newRewindRig(t)
	os.WriteFile(filepath.Join(r.root, "h.txt"), []byte("by hand\n"), 0o644)
	run := func(answers ...permission.Behavior) (RewindOutcome, error) {
		done := make(chan error, 1)
		var out RewindOutcome
		go func() {
			var err error
			out, err = r.be.RewindSession(context.Background(), r.id, RewindChoice{Turn: 2, Code: true, Conversation: true})
			done <- err
		}()
		for _, a := range answers {
			if err := r.resolve(r.next(t).RequestID, a, permission.ScopeSession, ""); err != nil {
				t.Fatal(err)
			}
		}
		err := <-done
		return out, err
	}
	out, err := run(permission.Deny)
	if err != nil || !out.Declined || out.Branch != "" || r.read("g.txt") != "gee\n" {
		t.Fatalf("denied: %+v %v, g.txt %q", out, err, r.read("g.txt"))
	}
	if list, _ := r.be.Sessions(context.Background(), 0); len(list) != 1 {
		t.Fatalf("a denied rewind started a branch: %+v", list)
	}
	out, err = run(permission.Allow, permission.Allow)
	if err != nil || len(out.Kept) != 0 || fmt.Sprint(out.Restored) != "[g.txt h.txt]" {
		t.Fatalf("allowed: %+v %v", out, err)
	}
	for _, gone := range []string{"g.txt", "h.txt"} {
		if _, err := os.Lstat(filepath.Join(r.root, gone)); !os.IsNotExist(err) {
			t.Errorf("%s left: %v", gone, err)
		}
	}
}
