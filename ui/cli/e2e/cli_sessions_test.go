package e2e

// The admin commands over sessions (issue 12, Found 13): one resolver for the
// IDs people type (short prefixes and suffixes, ambiguous ones listed,
// unknown ones an error), the reason of a failed turn in `sessions show`, and
// scope and deny reason in `pincer audit`.

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestSessionIDsAuditAndFailedTurn(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "c1", Name: "Bash", Args: `{"command":"touch marker"}`}}},
		openaitest.Reply{Text: "could not"},
		openaitest.Reply{Status: 401, Body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`},
	)
	if _, stderr, code := e.run(e.runArgs("make the marker")...); code != 0 {
		t.Fatalf("first run: %d %s", code, stderr)
	}
	if _, _, code := e.run(e.runArgs("second session")...); code != 1 {
		t.Fatalf("the provider error did not fail the turn: %d", code)
	}
	out, _, _ := e.run("sessions", "--json")
	var list []struct{ ID, Title string }
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 {
		t.Fatalf("sessions: %s", out)
	}
	failed, denied := list[0].ID, list[1].ID // newest first
	// Both IDs start with the date: a prefix that fits both is ambiguous.
	common := 0
	for common < len(failed) && failed[common] == denied[common] {
		common++
	}
	prefix := failed[:min(common, 8)]
	short := denied[strings.LastIndex(denied, "-")+1:]

	for _, args := range [][]string{{"audit", "--session", prefix}, {"sessions", "show", prefix}, {"sessions", "watch", prefix}} {
		_, stderr, code := e.run(args...)
		if code != 1 || !strings.Contains(stderr, "ambiguous") || !strings.Contains(stderr, failed) || !strings.Contains(stderr, denied) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 listing both sessions", args, code, stderr)
		}
	}
	for _, args := range [][]string{{"audit", "--session", "nosuchsession"}, {"sessions", "show", "nosuchsession"}, {"sessions", "watch", "nosuchsession"}} {
		out, stderr, code := e.run(args...)
		if code != 1 || !strings.Contains(stderr, `no session "nosuchsession"`) || strings.Contains(out, "No permission decisions") {
			t.Errorf("%v: exit %d, out %q, stderr %q; want exit 1, no session", args, code, out, stderr)
		}
	}

	out, stderr, code := e.run("audit", "--session", short)
	if code != 0 {
		t.Fatalf("audit --session %s: %d %s", short, code, stderr)
	}
	if !strings.Contains(out, "SCOPE") || !strings.Contains(out, "REASON") || !strings.Contains(out, "deny") ||
		!strings.Contains(out, "--permission-mode") { // the headless denial's reason names the flag that would allow it
		t.Errorf("audit without scope or deny reason:\n%s", out)
	}
	out, _, _ = e.run("audit", "--json")
	if !strings.Contains(out, `"reason"`) {
		t.Errorf("audit --json without the reason: %s", out)
	}

	out, _, code = e.run("sessions", "show", failed[len(failed)-6:])
	if code != 0 || !strings.Contains(out, "failed (provider)") || !strings.Contains(out, "Incorrect API key") {
		t.Errorf("sessions show of the failed turn (exit %d) has no reason:\n%s", code, out)
	}
}
