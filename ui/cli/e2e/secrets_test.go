package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestRunOwnGitRunsNoRepositoryHelper (issue 10, class 4): through the real
// binary, a repository whose .git/config names helper programs (fsmonitor, a
// clean filter, a pager) gets none of them run by the git pincer runs for the
// dynamic prompt on every model call, and no key reaches one.
func TestRunOwnGitRunsNoRepositoryHelper(t *testing.T) {
	e := newEnv(t, openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "r1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{Text: "done"})
	outside := t.TempDir()
	script := filepath.Join(outside, "helper.sh")
	proof := filepath.Join(outside, "PROOF_helper")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nenv >> '"+proof+"'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"core.fsmonitor", script}, {"filter.x.clean", script}, {"filter.x.process", script},
		{"core.pager", script}, {"log.showSignature", "true"}, {"gpg.program", script}, {"diff.external", script}} {
		cmd := exec.Command("git", "config", kv[0], kv[1])
		cmd.Dir = e.repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git config: %v %s", err, out)
		}
	}
	e.write(".gitattributes", "* filter=x\n")
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "look")...)
	cmd.Env = append(cmd.Env, "OPENAI_API_KEY=sk-e2e-openai-0123456789", "GITHUB_TOKEN=ghp_e2e_0123456789")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pincer run: %v\n%s", err, out)
	}
	if len(e.fake.Requests()) < 2 {
		t.Fatalf("the model was called %d times", len(e.fake.Requests()))
	}
	if b, err := os.ReadFile(proof); err == nil {
		t.Errorf("a repository helper ran (keys seen: openai=%v github=%v)",
			strings.Contains(string(b), "sk-e2e-openai"), strings.Contains(string(b), "ghp_e2e"))
	}
}

// TestRunRedactsKeysFromToolResults (issue 10, class 14): `cat .env` and Read
// of a file holding the session's API key send "[redacted: NAME]" to the
// provider, never the key, and the stored session holds no key either.
func TestRunRedactsKeysFromToolResults(t *testing.T) {
	const key = "sk-e2e-redact-0123456789abcdef"
	e := newEnv(t,
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "b1", Name: "Bash", Args: `{"command":"cat .env; echo; grep -r KEY . --include=.env"}`},
			{ID: "r1", Name: "Read", Args: `{"file_path":".env"}`},
		}},
		openaitest.Reply{Text: "done"},
	)
	e.write(".env", "PINCER_API_KEY="+key+"\nGITHUB_TOKEN=ghp_e2e_redact_0123456789\n")
	cmd := e.command(e.runArgs("--permission-mode", "bypassPermissions", "--output-format", "stream-json", "read the env")...)
	cmd.Env = append(cmd.Env, "PINCER_API_KEY="+key, "GITHUB_TOKEN=ghp_e2e_redact_0123456789")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pincer run: %v", err)
	}
	reqs := e.fake.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	b, _ := json.Marshal(reqs[1]["messages"])
	sent := string(b)
	for _, secret := range []string{key, "ghp_e2e_redact_0123456789"} {
		if strings.Contains(sent, secret) {
			t.Errorf("the provider got a secret")
		}
		if strings.Contains(string(out), secret) {
			t.Errorf("the stream printed a secret")
		}
	}
	if !strings.Contains(sent, "[redacted: PINCER_API_KEY]") || !strings.Contains(sent, "[redacted: GITHUB_TOKEN]") {
		t.Errorf("no redaction marks in what was sent: %s", sent)
	}
	// The stored session (through the store daemon) holds no key either.
	var sid string
	for _, ev := range parseStream(t, string(out)) {
		if ev.SessionID != "" {
			sid = ev.SessionID
		}
	}
	shown, _, code := e.run("sessions", "show", sid, "--json")
	if code != 0 || strings.Contains(shown, key) {
		t.Errorf("sessions show: exit %d, key stored: %v", code, strings.Contains(shown, key))
	}
}
