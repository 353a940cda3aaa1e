package agent

import (
	"context"
	"strings"
	"testing"

	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/tools"
)

// A reminder queued while a tool runs reaches the turn's next model call,
// after the tool result; one queued between turns goes in front of the next
// user message.
func TestRemindReachesNextModelCall(t *testing.T) {
	var h *harness
	tool := &fakeTool{name: "Ping", kind: tools.KindRead, run: func(ctx context.Context, input []byte) (tools.Result, error) {
		h.ag.Remind(h.sess.ID, "background task b1 finished: ALL GOOD")
		return tools.Result{Output: "pong"}, nil
	}}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Ping", `{"x":"a"}`)),
		providertest.Text("done"),
		providertest.Text("second"),
	}}
	h = newHarness(t, prov, permission.ModeBypass, tool)
	h.submit(context.Background(), "go")
	req := prov.Request(1)
	last := req.Messages[len(req.Messages)-1]
	if last.Role != message.RoleUser || !strings.Contains(last.Text(), "<system-reminder>") || !strings.Contains(last.Text(), "ALL GOOD") {
		t.Fatalf("second request does not end with the reminder: %+v", last)
	}
	if strings.Contains(requestText(prov.Request(0)), "ALL GOOD") {
		t.Fatal("the reminder reached the call before it was queued")
	}
	h.ag.Remind(h.sess.ID, "between turns NOTE")
	h.ag.Remind(h.sess.ID, "   ")
	h.submit(context.Background(), "next")
	req = prov.Request(2)
	n := len(req.Messages)
	if !strings.Contains(req.Messages[n-2].Text(), "between turns NOTE") || req.Messages[n-1].Text() != "next" {
		t.Fatalf("a reminder between turns is not before the next prompt: %q / %q", req.Messages[n-2].Text(), req.Messages[n-1].Text())
	}
	if strings.Count(requestText(req), "ALL GOOD") != 1 {
		t.Fatal("a reminder was delivered twice")
	}
}

// requestText is every message text of a request, joined.
func requestText(r provider.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Text())
		b.WriteByte('\n')
	}
	return b.String()
}
