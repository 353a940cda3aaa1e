package web_test

import (
	"testing"
	"time"

	"pincer/ui/web/webtest"
)

// TestEscCancelsTheRunningTurn (NU10): Esc in the input box posts the
// session's cancel while its turn runs (s1's stream starts a turn and never
// ends it), as the workbench's Esc; the header's status then follows the
// list's words: a cancelled turn shows "cancelled", not "idle".
func TestEscCancelsTheRunningTurn(t *testing.T) {
	ctx, srv, _ := openPanel(t)
	webtest.Navigate(ctx, t, srv.URL+"/#s=s1")
	webtest.Eval[bool](ctx, t, `new Promise(r => { const f = () => document.getElementById("s-status")?.textContent === "running" ? r(true) : setTimeout(f, 20); f(); })`)
	webtest.Eval[bool](ctx, t, `(() => { const i = document.getElementById("input"); i.focus(); i.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: true, cancelable: true})); return true; })()`)
	deadline := time.Now().Add(5 * time.Second)
	for cancels() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Esc in the input box posted no cancel")
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := webtest.Eval[[]string](ctx, t, `import("/static/state.js").then(st => ["turn.cancelled", "turn.failed", "turn.completed"].map(type => {
		const v = st.newView("x");
		st.apply(v, {type: "turn.started", sequence: 1, turnId: "t"});
		st.apply(v, {type, sequence: 2, turnId: "t"});
		return v.ended;
	}))`)
	if want := []string{"cancelled", "failed", "idle"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("how the turn ended: %v, want %v", got, want)
	}
}

// TestCallKeepsItsResultAndDenial (NU3's timeline part, NU8): a call's
// result text, error flag and the denial's who and reason are folded into
// the call the timeline draws.
func TestCallKeepsItsResultAndDenial(t *testing.T) {
	ctx, _, _ := openPanel(t)
	got := webtest.Eval[map[string]any](ctx, t, `import("/static/state.js").then(st => {
		const v = st.newView("x");
		st.apply(v, {type: "turn.started", sequence: 1, turnId: "t"});
		st.apply(v, {type: "tool.completed", sequence: 2, toolCallId: "a", name: "Bash", output: "exit status 2\nno such file", isError: true});
		st.apply(v, {type: "permission.requested", sequence: 3, requestId: "r", toolCallId: "b", name: "Bash"});
		st.apply(v, {type: "permission.resolved", sequence: 4, requestId: "r", toolCallId: "b", decision: "deny", by: "user", reason: "not now"});
		const a = v.byCall.get("a"), b = v.byCall.get("b");
		return {aOut: a.output, aErr: a.isError, aStatus: a.status, bBy: b.deniedBy, bWhy: b.denyReason, bStatus: b.status};
	})`)
	if got["aOut"] != "exit status 2\nno such file" || got["aErr"] != true || got["aStatus"] != "error" ||
		got["bBy"] != "user" || got["bWhy"] != "not now" || got["bStatus"] != "denied" {
		t.Errorf("the calls: %v", got)
	}
}
