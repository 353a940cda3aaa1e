package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/sandbox"
	"pincer/tools"
)

// TestTextShowsNoticesAndReportsMalformedOnes: the text format prints each
// notice of the turn on stderr, and one whose payload does not decode is
// reported as such instead of silently dropped.
func TestTextShowsNoticesAndReportsMalformedOnes(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	ws, err := sandbox.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ag, err := agent.New(agent.Config{Store: store, Tools: tools.NewRegistry(), Workspace: ws,
		Provider: &providertest.Scripted{Steps: []providertest.Step{providertest.Text("hello")}},
		Model:    "m", ModelName: "fake/m"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := ag.CreateSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := event.New(event.Notice, sess.ID, "", event.NoticeData{Level: "warning", Source: "config", Message: "a line was skipped"})
	bad, _ := event.New(event.Notice, sess.ID, "", nil)
	bad.Data = json.RawMessage(`{"level":3}`)
	for _, ev := range []event.Event{good, bad} {
		if _, err := ag.Log().Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	code := Run(ctx, ag, sess.ID, "hi", Options{Format: FormatText, Stdout: &stdout, Stderr: &stderr})
	if code != 0 || !strings.Contains(stdout.String(), "hello") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "pincer: config warning: a line was skipped\n") {
		t.Errorf("the notice is not shown: %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), "pincer: a notice could not be read: ") ||
		!strings.Contains(stderr.String(), "malformed event payload") {
		t.Errorf("the malformed notice is not reported: %q", stderr.String())
	}
}
