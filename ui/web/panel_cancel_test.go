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
