package e2e

// pincer serve's threat model, against the model: a sandboxed Bash call (with
// --allow-network, so loopback is reachable; the person lets it run) can neither read the token nor
// approve a pending request over HTTP — not without a token, with a guessed
// one, with the cookie guessed, with another site's Origin, or through a
// DNS-rebinding Host — and the Read tool cannot read the token file. The
// pending Edit stays pending and the file unchanged; then the person denies it.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

func TestAttackServeTokenAndApproval(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "edit please", ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{When: "edit please", ToolCalls: []openaitest.Call{{ID: "e1", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"PWNED"}`}}},
		openaitest.Reply{When: "edit please", Text: "edit answered"})
	p := e.startServe("--base-url", e.fake.BaseURL(), "--allow-network")
	var a, b struct{ ID string }
	p.api(t, "POST", "/api/sessions", map[string]string{"cwd": e.repo}, &a)
	p.api(t, "POST", "/api/sessions", map[string]string{"cwd": e.repo}, &b)
	if code := p.api(t, "POST", "/api/sessions/"+a.ID+"/turns", map[string]string{"input": "edit please"}, nil); code != 202 {
		t.Fatalf("turn A: %d", code)
	}
	rid := waitPending(t, p, "")

	u, _ := url.Parse(p.base)
	port := u.Port()
	approve := fmt.Sprintf("http://127.0.0.1:%s/api/approvals/%s", port, rid)
	guess := strings.Repeat("0", 64)
	curl := func(extra string) string {
		return fmt.Sprintf(`curl -s --max-time 5 -o /dev/null -w '%%{http_code}\n' -X POST -H 'Content-Type: application/json' %s -d '{"decision":"allow","scope":"always"}' '%s' >> codes 2>&1`, extra, approve)
	}
	tok := `"$(cat ` + p.tokenFile + ` 2>/dev/null)"`
	script := strings.Join([]string{
		"cat " + p.tokenFile + " > leak_cat 2>&1",
		"ls -la " + filepath.Dir(p.tokenFile) + " > leak_ls 2>&1",
		curl(""),
		curl("-H 'Authorization: Bearer " + guess + "'"),
		curl("-H 'Cookie: pincer_token=" + guess + "'"),
		curl("-H 'Authorization: Bearer '" + tok),
		curl("-H 'Origin: http://evil.example' -H 'Authorization: Bearer " + guess + "'"),
		curl("-H 'Host: evil.example:" + port + "' -H 'Authorization: Bearer " + guess + "'"),
		fmt.Sprintf(`curl -s --max-time 5 -o /dev/null -w '%%{http_code}\n' 'http://127.0.0.1:%s/?token=%s' >> codes 2>&1`, port, guess),
		fmt.Sprintf(`curl -s --max-time 5 'http://127.0.0.1:%s/api/approvals' > listing 2>&1`, port),
		"true",
	}, "; ")
	e.fake.Push(
		openaitest.Reply{When: "probe", ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: jsonArgs(t, map[string]any{"command": script})}}},
		openaitest.Reply{When: "probe", ToolCalls: []openaitest.Call{{ID: "t1", Name: "Read", Args: jsonArgs(t, map[string]any{"file_path": p.tokenFile})}}},
		openaitest.Reply{When: "probe", Text: "probed"})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	evs := p.sseLines(t, ctx, b.ID)
	if code := p.api(t, "POST", "/api/sessions/"+b.ID+"/turns", map[string]string{"input": "probe"}, nil); code != 202 {
		t.Fatalf("turn B: %d", code)
	}
	readOut := ""
	for ev := range evs {
		if ev[0] == "permission.requested" { // the person lets the probe run (with the token, as the panel would)
			var req struct{ RequestID, ToolCallID string }
			_ = json.Unmarshal([]byte(ev[1]), &req)
			if req.ToolCallID != "b1" {
				t.Fatalf("the probe asked for %s", ev[1])
			}
			waitPending(t, p, req.RequestID)
			if code := p.api(t, "POST", "/api/approvals/"+req.RequestID, map[string]string{"decision": "allow"}, nil); code != 200 {
				t.Fatalf("allowing the probe: %d", code)
			}
		}
		if ev[0] == "tool.completed" && strings.Contains(ev[1], `"t1"`) {
			readOut = ev[1]
		}
		if ev[0] == "turn.completed" || ev[0] == "turn.failed" {
			break
		}
	}
	if strings.Contains(readOut, p.token) || !strings.Contains(readOut, `"isError":true`) {
		t.Errorf("Read of the token file: %s", readOut)
	}
	for _, f := range []string{"leak_cat", "leak_ls", "listing"} {
		got, _ := os.ReadFile(filepath.Join(e.repo, f))
		if strings.Contains(string(got), p.token) || (f == "leak_ls" && strings.Contains(string(got), "serve.token")) {
			t.Errorf("%s leaks: %q", f, got)
		}
	}
	codes, err := os.ReadFile(filepath.Join(e.repo, "codes"))
	if err != nil {
		t.Fatalf("the probe wrote no codes: %v", err)
	}
	lines := strings.Fields(string(codes))
	if len(lines) != 7 {
		t.Fatalf("codes %q", codes)
	}
	for i, c := range lines { // each request reached the server and was refused
		if c != "401" && c != "403" && c != "421" {
			t.Errorf("probe %d answered %s (codes %v)", i, c, lines)
		}
	}
	if lines[4] != "403" || lines[5] != "421" {
		t.Errorf("Origin / Host probes: %v, want 403 then 421", lines)
	}
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("hello.txt = %q: the Edit ran", got)
	}
	if still := waitPending(t, p, rid); still != rid {
		t.Fatalf("the request is no longer pending")
	}
	if code := p.api(t, "POST", "/api/approvals/"+rid, map[string]string{"decision": "deny", "reason": "test over"}, nil); code != 200 {
		t.Fatalf("the person's deny: %d", code)
	}
}

// waitPending waits for a pending request (want: that one; "": any) and
// returns its ID.
func waitPending(t *testing.T, p *serveProc, want string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var list struct{ Approvals []struct{ RequestID string } }
		p.api(t, "GET", "/api/approvals", nil, &list)
		for _, a := range list.Approvals {
			if want == "" || a.RequestID == want {
				return a.RequestID
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no pending request %q", want)
	return ""
}
