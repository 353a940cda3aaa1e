package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// TestTrustProjectHooks: a cloned repository's hooks (.claude/settings.json
// here) do not run until the user trusts them; --trust-project-hooks and pincer
// trust record the trust; a change to the hook file needs trust again. The
// user's own hooks run regardless.
func TestTrustProjectHooks(t *testing.T) {
	e := newEnv(t)
	out := t.TempDir()
	marker, marker2, userMarker := filepath.Join(out, "project"), filepath.Join(out, "project2"), filepath.Join(out, "user")
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := func(path string) string {
		return `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo ran >> ` + path + `"}]}]}}`
	}
	e.write(".claude/settings.json", settings(marker))
	if err := os.WriteFile(filepath.Join(e.home, "config.toml"), []byte("[[hooks.SessionStart]]\ncommand = \"echo ran >> "+userMarker+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := func(path string) int {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0
		}
		return strings.Count(string(b), "ran")
	}
	const warning = "pincer: warning: 1 hook(s) from .claude/settings.json not run: this project's hooks are not trusted (review them, then pass --trust-project-hooks or run pincer trust)"
	run := func(extra ...string) string {
		t.Helper()
		e.fake.Push(openaitest.Reply{Text: "ok"})
		_, stderr, code := e.run(e.runArgs(append(extra, "hi")...)...)
		if code != 0 {
			t.Fatalf("pincer run %v: exit %d: %s", extra, code, stderr)
		}
		return stderr
	}

	stderr := run()
	if runs(marker) != 0 {
		t.Fatal("an untrusted project's SessionStart hook ran")
	}
	if strings.Count(stderr, warning) != 1 {
		t.Errorf("want the warning once, stderr:\n%s", stderr)
	}
	if runs(userMarker) != 1 {
		t.Errorf("the user's own hook did not run (%d)", runs(userMarker))
	}

	stderr = run("--trust-project-hooks")
	if runs(marker) != 1 {
		t.Fatalf("the trusted project hook did not run; stderr:\n%s", stderr)
	}
	if strings.Contains(stderr, "not trusted") {
		t.Errorf("warning despite --trust-project-hooks:\n%s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(e.home, "data", "trusted-projects.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct { // the file's shape (ui/cli trust.go)
		Projects map[string]struct {
			SHA256 string `json:"sha256"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(e.repo)
	if ent, ok := rec.Projects[real]; !ok || len(ent.SHA256) != 64 {
		t.Errorf("no trust record for %s: %s", real, data)
	}

	// Remembered: a later run without the flag runs them.
	if stderr = run(); runs(marker) != 2 || strings.Contains(stderr, "not trusted") {
		t.Errorf("trust was not remembered (runs %d); stderr:\n%s", runs(marker), stderr)
	}

	// A changed hook file (a git pull, the model) is untrusted again.
	e.write(".claude/settings.json", settings(marker2))
	stderr = run()
	if runs(marker2) != 0 {
		t.Error("the changed project hook ran without new trust")
	}
	if !strings.Contains(stderr, warning) {
		t.Errorf("no warning for the changed hook file:\n%s", stderr)
	}

	// pincer trust lists the hooks and asks: no answer (end of input) or "n" trusts nothing.
	for _, answer := range []string{"", "n\n", "yes please\n"} {
		cmd := e.command("trust")
		var out, errb bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(answer), &out, &errb
		err := cmd.Run()
		if err == nil || !strings.Contains(out.String(), "echo ran >> "+marker2) || !strings.Contains(out.String(), "[y/N]") ||
			!strings.Contains(out.String(), "nothing trusted") {
			t.Fatalf("pincer trust answered %q: %v\n%s\n%s", answer, err, out.String(), errb.String())
		}
		if stderr = run(); runs(marker2) != 0 {
			t.Fatalf("pincer trust answered %q trusted the hooks", answer)
		}
	}
	// y trusts them.
	cmd := e.command("trust")
	var yout, yerr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("y\n"), &yout, &yerr
	_ = cmd.Run()
	tout, terr, code := yout.String(), yerr.String(), cmd.ProcessState.ExitCode()
	if code != 0 || !strings.Contains(tout, "echo ran >> "+marker2) || !strings.Contains(tout, "pincer: trusted 1 hook(s) of ") {
		t.Fatalf("pincer trust: exit %d\n%s\n%s", code, tout, terr)
	}
	if stderr = run(); runs(marker2) != 1 || strings.Contains(stderr, "not trusted") {
		t.Errorf("pincer trust did not trust the hooks (runs %d); stderr:\n%s", runs(marker2), stderr)
	}
}

// TestTrustProjectHooksBrokenFileStillFails: an untrusted project file that does
// not parse still stops the run (the split does not weaken fail-closed).
func TestTrustProjectHooksBrokenFileStillFails(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(filepath.Join(e.repo, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":""}]}]}}`)
	e.fake.Push(openaitest.Reply{Text: "ok"})
	_, stderr, code := e.run(e.runArgs("hi")...)
	if code != 2 || !strings.Contains(stderr, ".claude/settings.json") {
		t.Errorf("exit %d, want 2 naming the file; stderr:\n%s", code, stderr)
	}
}
