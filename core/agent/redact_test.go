package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

func TestRedactorUnit(t *testing.T) {
	r := NewRedactor(map[string]string{
		"OPENAI_API_KEY": "sk-proj-AAAAAAAAAAAAAAAA", "SHORT": "abc", "EMPTY": "",
		"INNER": "AAAAAAAAAAAA", // inside the longer key: the longer one wins
		"Z_DUP": "dup-value-123456", "A_DUP": "dup-value-123456",
	})
	cases := map[string]string{
		"key=sk-proj-AAAAAAAAAAAAAAAA\n":   "key=[redacted: OPENAI_API_KEY]\n",
		"xsk-proj-AAAAAAAAAAAAAAAAy":       "x[redacted: OPENAI_API_KEY]y",
		"AAAAAAAAAAAA alone":               "[redacted: INNER] alone",
		"abc stays":                        "abc stays",
		"dup-value-123456":                 "[redacted: A_DUP]",
		"":                                 "",
		`{"k":"sk-proj-AAAAAAAAAAAAAAAA"}`: `{"k":"[redacted: OPENAI_API_KEY]"}`,
	}
	for in, want := range cases {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var nilR *Redactor
	if nilR.Redact("sk-proj-AAAAAAAAAAAAAAAA") != "sk-proj-AAAAAAAAAAAAAAAA" || nilR.Active() {
		t.Error("a nil Redactor changed text")
	}
	env := EnvSecrets([]string{"OPENAI_API_KEY=sk-1", "PATH=/bin", "GH_TOKEN=ghp", "X"})
	if len(env) != 2 || env["OPENAI_API_KEY"] != "sk-1" || env["GH_TOKEN"] != "ghp" {
		t.Errorf("EnvSecrets = %v", env)
	}
}

// TestRedactionThroughTheLoop: the model reads the configured key in many ways
// through the real tools; the stored results, the events and every request
// sent to the provider carry "[redacted: NAME]", never the key.
func TestRedactionThroughTheLoop(t *testing.T) {
	const key = "sk-test-REDACTME-0123456789abcdef"
	const token = "ghp_REDACTME_token_0123456789"
	const stored = "sk-stored-REDACTME-9876543210" // from the secret store, in no variable
	t.Setenv("GITHUB_TOKEN", token)

	red := NewRedactor(mergeSecrets(EnvSecrets([]string{"OPENAI_API_KEY=" + key, "GITHUB_TOKEN=" + token}),
		map[string]string{"DEEPSEEK_API_KEY": stored}))
	long := strings.Repeat("filler line to make the output spill\n", 4000)

	type attack struct{ name, tool, input string }
	attacks := []attack{
		{"Read .env", "Read", `{"file_path":".env"}`},
		{"Read .env from an offset", "Read", `{"file_path":".env","offset":3,"limit":1}`},
		{"cat .env", "Bash", `{"command":"cat .env"}`},
		{"grep the key", "Bash", `{"command":"grep -h KEY .env config.json"}`},
		{"echo through a variable", "Bash", `{"command":"k=$(sed -n 1p .env | cut -d= -f2); echo \"the key is $k!\""}`},
		{"on stderr, failing", "Bash", `{"command":"cat .env >&2; exit 3"}`},
		{"twice on a line, glued", "Bash", `{"command":"k=$(sed -n 1p .env | cut -d= -f2); echo \"$k$k\""}`},
		{"the token from a file", "Bash", `{"command":"cat token.txt"}`},
		{"the stored key in JSON", "Read", `{"file_path":"config.json"}`},
		{"Grep tool", "Grep", `{"pattern":"KEY","output_mode":"content"}`},
		{"long output that spills", "Bash", `{"command":"cat long.txt .env long.txt .env"}`},
		{"Edit .env shows a diff", "Edit", `{"file_path":".env","old_string":"DEBUG=1","new_string":"DEBUG=0"}`},
	}
	var steps []providertest.Step
	for i, a := range attacks {
		steps = append(steps, providertest.ToolCalls(providertest.ToolCall(callID(i), a.tool, a.input)))
	}
	prov := &providertest.Scripted{Steps: steps}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass, Redactor: red,
		SpillRoot: t.TempDir()}, defaultTools()...)
	root := h.ag.cfg.Workspace.Root()
	files := map[string]string{
		".env":        "OPENAI_API_KEY=" + key + "\nDEBUG=1\nGITHUB_TOKEN=" + token + "\n",
		"token.txt":   token,
		"config.json": `{"deepseek": {"KEY": "` + stored + `"}}`,
		"long.txt":    long,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if spill := h.ag.cfg.SpillRoot; spill != "" {
		_ = h.ag.cfg.Workspace.AddDir(spill)
	}
	h.submit(context.Background(), "look around")

	secrets := map[string]string{"OPENAI_API_KEY": key, "GITHUB_TOKEN": token, "DEEPSEEK_API_KEY": stored}
	leaks := func(where, s string) {
		t.Helper()
		for name, v := range secrets {
			if strings.Contains(s, v) {
				t.Errorf("%s holds %s", where, name)
			}
		}
	}
	results := h.toolResults()
	seen := map[string]bool{}
	for i, a := range attacks {
		r, ok := results[callID(i)]
		if !ok {
			t.Errorf("%s: no result", a.name)
			continue
		}
		leaks("stored result of "+a.name, r.Text)
		for name := range secrets {
			if strings.Contains(r.Text, "[redacted: "+name+"]") {
				seen[a.name] = true
			}
		}
	}
	for i, a := range attacks {
		if !seen[a.name] && a.name != "Edit .env shows a diff" {
			t.Errorf("%s: no [redacted: ...] in its result: %q", a.name, clip(results[callID(i)].Text))
		}
	}
	for _, ev := range h.events() {
		b, _ := json.Marshal(ev)
		leaks("event "+string(ev.Type), string(b))
		if ev.Type == event.ToolCompleted {
			d := mustDecode[event.ToolCompletedData](t, ev)
			if d.Name == "Edit" && !strings.Contains(d.Diff, "[redacted: OPENAI_API_KEY]") && d.Diff != "" {
				t.Errorf("Edit's diff is not redacted: %q", d.Diff)
			}
		}
	}
	for i := range prov.Calls() {
		b, _ := json.Marshal(prov.Request(i))
		leaks("request "+callID(i)+" to the provider", string(b))
	}
	for _, m := range h.messages() {
		leaks("message", m.Text())
	}
	// The full output spilled to disk is redacted too.
	spilled := 0
	_ = filepath.WalkDir(h.ag.cfg.SpillRoot, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			leaks("spill file "+d.Name(), string(b))
			spilled++
		}
		return nil
	})
	if spilled == 0 {
		t.Error("nothing was spilled: the long-output form tests nothing")
	}
}

func callID(i int) string { return "c" + string(rune('a'+i)) }

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

func mergeSecrets(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// defaultTools are the real tools (Read, Bash, Grep, Edit, ...).
func defaultTools() []tools.Tool { return tools.Default().All() }
