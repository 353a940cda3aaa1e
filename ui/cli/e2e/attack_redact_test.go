package e2e

// Issue 10, class 14: secrets in tool output. pincer runs with the provider key
// (PINCER_API_KEY, the fake provider's key) and other secret variables set to
// marker values; a .env in the workspace holds them all. Whatever the tools print
// of it — cat, grep, Read, Grep, a spilled long output — the tool results in the
// stream, the requests the provider received, the stored transcript, the audit
// trail and every file under PINCER_HOME carry "[redacted: NAME]", never a value.

import (
	"encoding/json"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func redactForms() []attackForm {
	return []attackForm{
		{Name: "cat-env", Cmd: `cat .env`},
		{Name: "cat-env-twice", Cmd: `cat .env .env`},
		{Name: "cat-A-env", Cmd: `cat -A .env`},
		{Name: "grep-key", Cmd: `grep KEY .env`},
		{Name: "grep-rn", Cmd: `grep -rn sk- .`},
		{Name: "head", Cmd: `head -n 5 .env`},
		{Name: "tail", Cmd: `tail -n 5 .env`},
		{Name: "sort", Cmd: `sort .env`},
		{Name: "nl", Cmd: `nl .env`},
		{Name: "pipe-cat", Cmd: `cat .env | cat`},
		{Name: "awk", Cmd: `awk '{print}' .env`},
		{Name: "sed", Cmd: `sed -n p .env`},
		{Name: "stderr", Cmd: `cat .env >&2`},
		{Name: "cut-value", Cmd: `cut -d= -f2 .env`},
		{Name: "config-js", Cmd: `cat config.js`},
		{Name: "long-output-spilled", Cmd: `for i in $(seq 1 2500); do cat .env; done`},
		{Name: "Read-env", Tool: "Read", Args: `{"file_path":".env"}`},
		{Name: "Read-config-js", Tool: "Read", Args: `{"file_path":"config.js"}`},
		{Name: "Grep-content", Tool: "Grep", Args: `{"pattern":"sk-","path":".","output_mode":"content"}`},
		{Name: "Edit-env-diff", Tool: "Edit", Args: `{"file_path":".env","old_string":"PLAIN=hello","new_string":"PLAIN=bye"}`},
		{Name: "git-diff-env", Cmd: `git diff -- .env`},
	}
}

func TestAttackSecretsRedactedFromToolOutput(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.extraEnv = secretEnv()
	a.write(".env", "OPENAI_API_KEY="+markerOpenAIKey+"\nPINCER_API_KEY="+markerPincerKey+"\nANTHROPIC_API_KEY="+markerAnthropicKey+
		"\nGITHUB_TOKEN="+markerGHToken+"\nPLAIN=hello\n")
	a.write("config.js", "module.exports = { key: '"+markerOpenAIKey+"' };\n")
	gitIn(t, a.repo, "add", ".env")
	gitIn(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "env")
	a.write(".env", strings.Replace(a.read(".env"), "PLAIN=hello", "PLAIN=hello\nMORE=1", 1)) // so git diff shows the keys as context
	pre := []openaitest.Call{{ID: "rxread", Name: "Read", Args: `{"file_path":".env","limit":50}`}}
	r := a.runFormsAfter("rx", pre, redactForms(), "--permission-mode", "bypassPermissions")
	for _, c := range r.Results {
		c := c
		t.Run(c.Form.Name, func(t *testing.T) {
			if !c.Completed {
				t.Fatalf("no result\n  %s", c.describe())
			}
			for _, v := range secretValues {
				if strings.Contains(c.Output, v) || strings.Contains(c.Diff, v) {
					t.Errorf("ESCAPE: the tool result (or its diff) holds %s…\n  %s", v[:12], c.describe())
				}
			}
			if !strings.Contains(c.Output+c.Diff, "[redacted: ") {
				t.Errorf("the tool result shows no [redacted: NAME]\n  %s", c.describe())
			}
		})
	}
	t.Run("names", func(t *testing.T) {
		c := r.Results[0]
		for _, name := range []string{"OPENAI_API_KEY", "PINCER_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_TOKEN"} {
			if !strings.Contains(c.Output, "[redacted: "+name+"]") {
				t.Errorf("cat .env: no [redacted: %s]: %q", name, c.Output)
			}
		}
		if !strings.Contains(c.Output, "PLAIN=hello") {
			t.Errorf("cat .env: the harmless line is gone: %q", c.Output)
		}
	})
	t.Run("provider-requests", func(t *testing.T) {
		b, _ := json.Marshal(a.fake.Requests())
		for _, v := range secretValues {
			if strings.Contains(string(b), v) {
				t.Errorf("ESCAPE: a request to the provider holds %s…", v[:12])
			}
		}
		if !strings.Contains(string(b), "[redacted: OPENAI_API_KEY]") {
			t.Errorf("the provider never got a redacted result")
		}
	})
	t.Run("stored-transcript-and-audit", func(t *testing.T) {
		out, _, _ := a.runPincer("sessions", "--json")
		var list []struct{ ID string }
		if json.Unmarshal([]byte(out), &list) != nil || len(list) == 0 {
			t.Fatalf("sessions --json: %s", out)
		}
		show, stderr, code := a.runPincer("sessions", "show", list[0].ID, "--json")
		if code != 0 {
			t.Fatalf("sessions show: %d %s", code, stderr)
		}
		audit, _, _ := a.runPincer("audit", "--json", "--limit", "0")
		for _, v := range secretValues {
			if strings.Contains(show, v) {
				t.Errorf("ESCAPE: the stored transcript holds %s…", v[:12])
			}
			if strings.Contains(audit, v) {
				t.Errorf("ESCAPE: the audit trail holds %s…", v[:12])
			}
		}
		if !strings.Contains(show, "[redacted: ") {
			t.Errorf("the stored transcript has no redacted result")
		}
	})
	t.Run("files-under-pincer-home", func(t *testing.T) {
		if found := filesContaining([]string{a.home}, secretValues); len(found) > 0 {
			t.Errorf("ESCAPE: %v", found)
		}
	})
}
