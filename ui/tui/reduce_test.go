package tui

import (
	"reflect"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// recorder builds a numbered event sequence for one session.
type recorder struct {
	t   *testing.T
	evs []event.Event
}

func (r *recorder) add(typ event.Type, turn string, payload any) *recorder {
	ev, err := event.New(typ, "s1", turn, payload)
	if err != nil {
		r.t.Fatal(err)
	}
	ev.Sequence = uint64(len(r.evs) + 1)
	ev.Timestamp = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(ev.Sequence) * time.Second)
	r.evs = append(r.evs, ev)
	return r
}

func cost(v float64) *float64 { return &v }

// sampleTurn is a recorded turn: streamed reasoning and text, a Read that ran,
// an Edit that waited for approval and was allowed, a Bash that was denied,
// usage with a cost, a notice.
func sampleTurn(t *testing.T) []event.Event {
	r := &recorder{t: t}
	r.add(event.SessionCreated, "", event.SessionCreatedData{Cwd: "/w", Model: "fake/m"}).
		add(event.TurnStarted, "t1", event.TurnStartedData{Input: "fix it"}).
		add(event.MessageDelta, "t1", event.MessageDeltaData{MessageID: "m1", Delta: "think", Kind: "reasoning"}).
		add(event.MessageDelta, "t1", event.MessageDeltaData{MessageID: "m1", Delta: "Let me ", Kind: "text"}).
		add(event.MessageDelta, "t1", event.MessageDeltaData{MessageID: "m1", Delta: "look.", Kind: "text"}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m1", Role: "assistant", Text: "Let me look.", Reasoning: "think"}).
		add(event.UsageReported, "t1", event.UsageData{InputTokens: 1000, OutputTokens: 50, CostUSD: cost(0.01)}).
		add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c1", Name: "Read", Input: `{"file_path":"a.go"}`, Summary: "Read a.go"}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c1", Name: "Read", Output: "package a", DurationMs: 12}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c2", Name: "Edit", Summary: "Edit a.go", Reason: "edits ask"}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r2", ToolCallID: "c3", Name: "Bash", Summary: "Bash: rm x", Reason: "commands ask"}).
		add(event.PermissionResolved, "t1", event.PermissionResolvedData{RequestID: "r1", ToolCallID: "c2", Decision: "allow", Scope: "once", By: "user"}).
		add(event.ToolStarted, "t1", event.ToolStartedData{ToolCallID: "c2", Name: "Edit", Summary: "Edit a.go"}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c2", Name: "Edit", Output: "ok", DurationMs: 3, Diff: "--- a/a.go\n+++ b/a.go\n"}).
		add(event.PermissionResolved, "t1", event.PermissionResolvedData{RequestID: "r2", ToolCallID: "c3", Decision: "deny", Scope: "once", Reason: "no", By: "user"}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c3", Name: "Bash", Output: "denied: no", IsError: true}).
		add(event.Notice, "t1", event.NoticeData{Level: "warning", Source: "hook", Message: "slow hook"}).
		add(event.MessageCompleted, "t1", event.MessageCompletedData{MessageID: "m2", Role: "assistant", Text: "Done."}).
		add(event.UsageReported, "t1", event.UsageData{InputTokens: 2000, OutputTokens: 20, CostUSD: cost(0.02)}).
		add(event.TurnCompleted, "t1", event.TurnCompletedData{StopReason: "stop"})
	return r.evs
}

func applyAll(evs []event.Event) *Model {
	m := NewModel()
	for _, ev := range evs {
		m.Apply(ev)
	}
	return m
}

func TestReduceRecordedTurn(t *testing.T) {
	m := applyAll(sampleTurn(t))

	wantTimeline := []struct {
		id     string
		status ToolStatus
		dur    time.Duration
	}{{"c1", ToolDone, 12 * time.Millisecond}, {"c2", ToolDone, 3 * time.Millisecond}, {"c3", ToolDenied, 0}}
	if len(m.Timeline) != len(wantTimeline) {
		t.Fatalf("timeline = %+v", m.Timeline)
	}
	for i, w := range wantTimeline {
		e := m.Timeline[i]
		if e.ToolCallID != w.id || e.Status != w.status || e.Duration != w.dur {
			t.Errorf("timeline[%d] = %s %s %s, want %s %s %s", i, e.ToolCallID, e.Status, e.Duration, w.id, w.status, w.dur)
		}
	}
	if m.Timeline[1].Diff == "" || m.Timeline[0].Input == "" || m.Timeline[2].Summary != "Bash: rm x" {
		t.Errorf("timeline details: %+v", m.Timeline)
	}
	if len(m.Approvals) != 0 {
		t.Errorf("approvals left: %+v", m.Approvals)
	}

	kinds := []transcript.Kind{}
	for _, b := range m.Blocks {
		kinds = append(kinds, b.Kind)
	}
	wantKinds := []transcript.Kind{transcript.KindUser, transcript.KindReasoning, transcript.KindAssistant,
		transcript.KindTool, transcript.KindTool, transcript.KindTool, transcript.KindNotice, transcript.KindAssistant}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Errorf("block kinds = %v, want %v", kinds, wantKinds)
	}
	if b, _ := m.Block("m1"); b.Text != "Let me look." || !b.Done {
		t.Errorf("assistant block = %+v", b)
	}
	if b, _ := m.Block("m1#reasoning"); b.Text != "think" || !b.Collapsed || !b.Done {
		t.Errorf("reasoning block = %+v", b)
	}
	if b, _ := m.Block("tool:c3"); b.Status != transcript.StatusDenied || !b.Collapsed {
		t.Errorf("denied tool block = %+v", b)
	}

	s := m.Status
	if s.Model != "fake/m" || s.Cwd != "/w" || s.Session != "s1" || s.Turn != TurnCompleted || s.TurnDetail != "stop" ||
		s.Turns != 1 || s.InputTokens != 3000 || s.OutputTokens != 70 || s.CostUnknown || s.CostUSD < 0.0299 || s.CostUSD > 0.0301 ||
		s.LastContextTokens != 2020 {
		t.Errorf("status = %+v", s)
	}
	if len(m.Notices) != 1 || m.Notices[0].Message != "slow hook" {
		t.Errorf("notices = %+v", m.Notices)
	}
	if m.LastSequence != 20 {
		t.Errorf("last sequence %d", m.LastSequence)
	}
}

// TestReduceStates checks the model at points inside a turn.
func TestReduceStates(t *testing.T) {
	evs := sampleTurn(t)
	tests := []struct {
		name  string
		upTo  int // events applied
		check func(t *testing.T, m *Model)
	}{
		{"streaming", 5, func(t *testing.T, m *Model) {
			b, _ := m.Block("m1")
			if b.Text != "Let me look." || b.Done || m.Status.Turn != TurnRunning {
				t.Errorf("block %+v, turn %s", b, m.Status.Turn)
			}
		}},
		{"two approvals queued oldest first", 11, func(t *testing.T, m *Model) {
			if len(m.Approvals) != 2 || m.Approvals[0].RequestID != "r1" || m.Approvals[1].RequestID != "r2" {
				t.Fatalf("approvals = %+v", m.Approvals)
			}
			if e, _ := m.Tool("c2"); e.Status != ToolApproval || e.RequestID != "r1" {
				t.Errorf("c2 = %+v", e)
			}
		}},
		{"allowed, not started", 12, func(t *testing.T, m *Model) {
			if len(m.Approvals) != 1 || m.Approvals[0].RequestID != "r2" {
				t.Errorf("approvals = %+v", m.Approvals)
			}
			if e, _ := m.Tool("c2"); e.Status != ToolPending {
				t.Errorf("c2 = %+v", e)
			}
		}},
		{"running", 13, func(t *testing.T, m *Model) {
			if e, _ := m.Tool("c2"); e.Status != ToolRunning || e.Started.IsZero() {
				t.Errorf("c2 = %+v", e)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, applyAll(evs[:tt.upTo])) })
	}
}

func TestReduceFailuresAndUnknownCost(t *testing.T) {
	r := &recorder{t: t}
	r.add(event.TurnStarted, "t1", event.TurnStartedData{Input: "a"}).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1", Name: "Bash"}).
		add(event.UsageReported, "t1", event.UsageData{InputTokens: 5}).
		add(event.ToolCompleted, "t1", event.ToolCompletedData{ToolCallID: "c9", Name: "Nope", Output: "unknown tool", IsError: true}).
		add(event.TurnFailed, "t1", event.TurnFailedData{Error: "boom", Reason: "provider"})
	m := applyAll(r.evs)
	if m.Status.Turn != TurnFailed || m.Status.TurnDetail != "provider" || !m.Status.CostUnknown {
		t.Errorf("status = %+v", m.Status)
	}
	if len(m.Approvals) != 0 {
		t.Errorf("a failed turn leaves approvals: %+v", m.Approvals)
	}
	if e, _ := m.Tool("c9"); e.Status != ToolFailed || e.Summary != "Nope" {
		t.Errorf("never-started call = %+v", e)
	}
	last := m.Blocks[len(m.Blocks)-1]
	if last.Kind != transcript.KindError || last.Text != "boom" {
		t.Errorf("last block = %+v", last)
	}
	// A new turn drops requests of an earlier turn that never resolved (a crash).
	r2 := &recorder{t: t}
	r2.add(event.TurnStarted, "t1", nil).
		add(event.PermissionRequested, "t1", event.PermissionRequestedData{RequestID: "r1", ToolCallID: "c1"}).
		add(event.TurnStarted, "t2", nil)
	if m := applyAll(r2.evs); len(m.Approvals) != 0 {
		t.Errorf("stale approval kept: %+v", m.Approvals)
	}
}

// TestReplayEqualsLive: a model fed the whole log at once equals one fed event
// by event with the UI reading it (TakeTouched) in between, and replaying
// events already applied changes nothing.
func TestReplayEqualsLive(t *testing.T) {
	evs := sampleTurn(t)
	replay := applyAll(evs)
	replay.TakeTouched()

	live := NewModel()
	for i, ev := range evs {
		live.Apply(ev)
		if i%3 == 0 {
			live.TakeTouched()
			_, _ = live.Tool("c1")
		}
	}
	for _, ev := range evs[:7] { // a reconnect that re-reads from an old cursor
		live.Apply(ev)
	}
	live.TakeTouched()
	assertSameModel(t, replay, live)
}

func assertSameModel(t *testing.T, a, b *Model) {
	t.Helper()
	if !reflect.DeepEqual(a.Blocks, b.Blocks) {
		t.Errorf("blocks differ:\n%+v\n%+v", a.Blocks, b.Blocks)
	}
	if !reflect.DeepEqual(a.Timeline, b.Timeline) {
		t.Errorf("timelines differ:\n%+v\n%+v", a.Timeline, b.Timeline)
	}
	if !reflect.DeepEqual(a.Approvals, b.Approvals) {
		t.Errorf("approvals differ:\n%+v\n%+v", a.Approvals, b.Approvals)
	}
	if a.Status != b.Status || !reflect.DeepEqual(a.Notices, b.Notices) || a.LastSequence != b.LastSequence {
		t.Errorf("status differ:\n%+v\n%+v", a.Status, b.Status)
	}
}

func TestTakeTouched(t *testing.T) {
	evs := sampleTurn(t)
	m := NewModel()
	for _, ev := range evs[:5] {
		m.Apply(ev)
	}
	got := m.TakeTouched()
	want := []string{"user:t1", "m1#reasoning", "m1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("touched = %v, want %v", got, want)
	}
	if again := m.TakeTouched(); len(again) != 0 {
		t.Errorf("touched twice: %v", again)
	}
}
