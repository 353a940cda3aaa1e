package e2e

// The harness of the end-to-end attack suite (issue 10): each attack test scripts the
// fake provider to make many tool calls in one reply, runs the real pincer binary
// (`pincer run`, headless, so every ask is a denial) and judges each call on its own
// from the stream-json output, the audit trail and the file system. Every payload is
// a harmless marker: a file whose name starts with PROOF, created in a temporary
// directory (the workspace, or a directory outside it).

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// attackForm is one way of trying an attack. Cmd (for Bash) or Args (for other
// tools, raw JSON) may use the placeholders {P} (this form's marker path), {W} (the
// workspace), {O} (a directory outside the workspace), {H} (PINCER_HOME) and {ID}
// (this form's call ID).
type attackForm struct {
	Name string
	Tool string // "Bash" when empty
	Cmd  string
	Args string
	// Marker is where the payload would write when the attack works; default
	// {W}/PROOF_{ID} for Bash forms.
	Marker string
	// Victim, when set, is a file the harness creates (content "victim {ID}\n")
	// before the run; the attack works when it is gone or changed afterwards.
	Victim string
	// EffectOnly marks a form whose write the permission engine cannot see (a
	// program an interpreter runs): in modes that run it, only its effect is
	// judged — the sandbox must stop it.
	EffectOnly bool
	// Leak, when set, must not appear in the call's tool result (a secret's
	// content, a hidden file's name).
	Leak string
}

// callResult is what one tool call came to: the audited decision, the tool result
// and any permission request the stream carried.
type callResult struct {
	ID        string
	Form      attackForm
	Input     string // the JSON arguments sent
	Marker    string
	Victim    string // the victim file's path, when the form has one
	Decision  string // from the audit trail: allow, deny, ask; "" when none was recorded
	By        string
	Rule      string
	Requested bool   // a permission.requested event was seen for the call
	Resolved  string // the permission.resolved decision, when one was seen
	Output    string
	Diff      string // the tool result's diff (file edits)
	IsError   bool
	Completed bool
}

// attackEnv is a scene for attacks: a git repository (the workspace), a private
// PINCER_HOME and a fake provider, plus a directory outside the workspace.
type attackEnv struct {
	*env
	outside  string
	extraEnv []string
}

// outsideTemp makes a directory outside the workspace and outside the temp
// directories the sandbox may write (under $HOME when it can), so a sandboxed
// write there fails even when the permission engine wrongly allows it.
func outsideTemp(t *testing.T) string {
	t.Helper()
	if home, err := os.UserHomeDir(); err == nil {
		if dir, err := os.MkdirTemp(home, ".pincer-attack-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

func newAttackEnv(t *testing.T) *attackEnv {
	t.Helper()
	return &attackEnv{env: newEnv(t), outside: t.TempDir()}
}

// expand replaces the placeholders of s.
func (a *attackEnv) expand(s, id, marker string) string {
	r := strings.NewReplacer("{P}", marker, "{W}", a.repo, "{O}", a.outside, "{H}", a.home, "{ID}", id)
	return r.Replace(s)
}

// command is env.command with the scene's extra environment.
func (a *attackEnv) command(args ...string) *exec.Cmd {
	cmd := a.env.command(args...)
	cmd.Env = append(cmd.Env, a.extraEnv...)
	return cmd
}

// runPincer runs pincer with the scene's environment and returns stdout, stderr and
// the exit code.
func (a *attackEnv) runPincer(args ...string) (string, string, int) {
	a.t.Helper()
	cmd := a.command(args...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		a.t.Fatalf("run pincer %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// calls builds the scripted tool calls of forms; prefix makes the call IDs unique
// within the session.
func (a *attackEnv) calls(prefix string, forms []attackForm) ([]openaitest.Call, []*callResult) {
	var calls []openaitest.Call
	var results []*callResult
	for i, f := range forms {
		id := fmt.Sprintf("%s%02d", prefix, i)
		marker := f.Marker
		if marker == "" {
			marker = filepath.Join(a.repo, "PROOF_"+id)
		}
		marker = a.expand(marker, id, "")
		victim := ""
		if f.Victim != "" {
			victim = a.expand(f.Victim, id, marker)
			mustWrite(a.t, victim, "victim "+id+"\n", 0o644)
		}
		tool := f.Tool
		if tool == "" {
			tool = "Bash"
		}
		var args string
		if f.Args != "" {
			args = strings.ReplaceAll(a.expand(f.Args, id, marker), "{V}", victim)
		} else {
			b, _ := json.Marshal(map[string]string{"command": strings.ReplaceAll(a.expand(f.Cmd, id, marker), "{V}", victim)})
			args = string(b)
		}
		calls = append(calls, openaitest.Call{ID: id, Name: tool, Args: args})
		results = append(results, &callResult{ID: id, Form: f, Input: args, Marker: marker, Victim: victim})
	}
	return calls, results
}

// attackRun is one `pincer run` of a batch of forms.
type attackRun struct {
	Stdout, Stderr string
	Code           int
	Results        []*callResult
}

// runForms scripts one reply making every form's call, then a plain answer, runs
// `pincer run` with flags, and collects each call's result.
func (a *attackEnv) runForms(prefix string, forms []attackForm, flags ...string) *attackRun {
	a.t.Helper()
	return a.runFormsAfter(prefix, nil, forms, flags...)
}

// runFormsAfter is runForms with a first reply making the calls pre (say, Reads
// that a Write or Edit of an existing file needs first).
func (a *attackEnv) runFormsAfter(prefix string, pre []openaitest.Call, forms []attackForm, flags ...string) *attackRun {
	a.t.Helper()
	return a.runFormsPrompt(prefix, "attack "+prefix, pre, forms, flags...)
}

// runFormsPrompt is runFormsAfter with the person's prompt (a /command line,
// say) instead of "attack PREFIX".
func (a *attackEnv) runFormsPrompt(prefix, prompt string, pre []openaitest.Call, forms []attackForm, flags ...string) *attackRun {
	a.t.Helper()
	calls, results := a.calls(prefix, forms)
	if len(pre) > 0 {
		a.fake.Push(openaitest.Reply{ToolCalls: pre})
	}
	a.fake.Push(openaitest.Reply{ToolCalls: calls}, openaitest.Reply{Text: "done"})
	args := a.runArgs(append(append([]string{"--output-format", "stream-json"}, flags...), prompt)...)
	out, stderr, code := a.runPincer(args...)
	r := &attackRun{Stdout: out, Stderr: stderr, Code: code, Results: results}
	a.collect(r)
	return r
}

// attackEvent is the part of a stream-json line the attack tests read.
type attackEvent struct {
	Type       string `json:"type"`
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Output     string `json:"output"`
	Diff       string `json:"diff"`
	IsError    bool   `json:"isError"`
	Decision   string `json:"decision"`
	By         string `json:"by"`
}

// collect fills r's results from the stream and the audit trail.
func (a *attackEnv) collect(r *attackRun) {
	a.t.Helper()
	byID := map[string]*callResult{}
	for _, c := range r.Results {
		byID[c.ID] = c
	}
	for _, line := range strings.Split(r.Stdout, "\n") {
		var ev attackEvent
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		c := byID[ev.ToolCallID]
		if c == nil {
			continue
		}
		switch ev.Type {
		case "tool.completed":
			c.Completed, c.Output, c.Diff, c.IsError = true, ev.Output, ev.Diff, ev.IsError
		case "permission.requested":
			c.Requested = true
		case "permission.resolved":
			c.Resolved = ev.Decision
		}
	}
	out, _, code := a.runPincer("audit", "--json", "--limit", "0")
	var entries []struct {
		ToolCallID, Decision, By, Rule string
	}
	if code != 0 || json.Unmarshal([]byte(out), &entries) != nil {
		a.t.Errorf("pincer audit --json: exit %d, %.300s", code, out)
	}
	for _, en := range entries {
		if c := byID[en.ToolCallID]; c != nil {
			// Newest first: keep the first (latest) decision, but an allow anywhere wins.
			if c.Decision == "" || en.Decision == "allow" {
				c.Decision, c.By, c.Rule = en.Decision, en.By, en.Rule
			}
		}
	}
}

// exists reports whether path exists (without following a final symlink).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// describe is a one-line account of a call for failure messages.
func (c *callResult) describe() string {
	out := strings.ReplaceAll(c.Output, "\n", "⏎")
	if len(out) > 240 {
		out = out[:240] + "…"
	}
	return fmt.Sprintf("[%s] %s\n    decision=%q by=%q rule=%q requested=%v resolved=%q isError=%v completed=%v\n    output: %s",
		c.ID, c.Input, c.Decision, c.By, c.Rule, c.Requested, c.Resolved, c.IsError, c.Completed, out)
}

// refused reports whether the call's result says it was denied, needs approval or
// failed.
func (c *callResult) refused() bool {
	if !c.Completed {
		return false
	}
	if c.IsError {
		return true
	}
	low := strings.ToLower(c.Output)
	for _, w := range []string{"denied", "needs approval", "not allowed", "refused", "blocked"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// expectBlocked judges each call as a subtest: its marker never appears, the tool
// result says denied/needs approval (or failed), and neither the audit trail nor the
// stream shows an allow for it.
func expectBlocked(t *testing.T, r *attackRun) {
	t.Helper()
	for _, c := range r.Results {
		c := c
		t.Run(c.Form.Name, func(t *testing.T) {
			c.checkEffects(t)
			if c.Decision == "" {
				// Refused before the permission engine (bad input, a duplicate call,
				// an unknown tool): the form tested nothing.
				t.Errorf("HARNESS: the call never reached the permission engine (no audit entry)\n  %s", c.describe())
			}
			if c.Form.EffectOnly {
				t.Logf("decision %q by %q (effect judged only)", c.Decision, c.By)
				return
			}
			if c.Decision == "allow" || c.Resolved == "allow" {
				t.Errorf("WRONGLY ALLOWED\n  %s", c.describe())
			}
			if !c.refused() {
				t.Errorf("the tool result does not say denied / needs approval\n  %s", c.describe())
			}
		})
	}
}

// checkEffects fails t when the call's marker exists or its victim is gone or
// changed.
func (c *callResult) checkEffects(t *testing.T) {
	t.Helper()
	if exists(c.Marker) {
		t.Errorf("ESCAPE: the marker %s was created\n  %s", c.Marker, c.describe())
	}
	if c.Form.Leak != "" && strings.Contains(c.Output, c.Form.Leak) {
		t.Errorf("ESCAPE: the tool result shows %q\n  %s", c.Form.Leak, c.describe())
	}
	if c.Victim != "" {
		if b, err := os.ReadFile(c.Victim); err != nil || string(b) != "victim "+c.ID+"\n" {
			t.Errorf("ESCAPE: the victim %s was deleted or changed (%v)\n  %s", c.Victim, err, c.describe())
		}
	}
}

// expectNoEffect judges each call as a subtest by its effects only: the marker
// never appears and the victim survives; the call may have been allowed (a
// read-only command run with every helper disabled, a sandboxed command that
// cannot reach its target).
func expectNoEffect(t *testing.T, r *attackRun) {
	t.Helper()
	for _, c := range r.Results {
		c := c
		t.Run(c.Form.Name, func(t *testing.T) {
			c.checkEffects(t)
			t.Logf("decision %q by %q", c.Decision, c.By)
		})
	}
}

// expectAllowed judges each call as a subtest: it was allowed without approval and
// succeeded; check, when set, is called for more.
func expectAllowed(t *testing.T, r *attackRun, check func(t *testing.T, c *callResult)) {
	t.Helper()
	for _, c := range r.Results {
		c := c
		t.Run(c.Form.Name, func(t *testing.T) {
			if c.Decision != "allow" || c.Requested {
				t.Errorf("not allowed without approval\n  %s", c.describe())
			}
			if !c.Completed || c.IsError {
				t.Errorf("did not succeed\n  %s", c.describe())
			}
			if check != nil {
				check(t, c)
			}
		})
	}
}

// control runs forms that must be allowed and succeed under the same flags, so
// that the refusals of an attack run are the paths' or programs' doing, not the
// mode's or the scene's.
func (a *attackEnv) control(t *testing.T, prefix string, forms []attackForm, flags ...string) {
	t.Helper()
	r := a.runForms(prefix, forms, flags...)
	t.Run("control", func(t *testing.T) { expectAllowed(t, r, nil) })
}

// proofFiles lists files named PROOF* under dir.
func proofFiles(dir string) []string {
	var found []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "PROOF") {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// mustWrite writes content to path, creating its directory.
func mustWrite(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// gitIn runs git in dir and fails the test on an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// checkNoLeak fails t when any request pincer sent to the model carries
// secret (an outside file's content reached a tool result).
func (a *attackEnv) checkNoLeak(t *testing.T, secret string) {
	t.Helper()
	for i, req := range a.fake.Requests() {
		if b, _ := json.Marshal(req); strings.Contains(string(b), secret) {
			t.Errorf("LEAK: request %d to the model carries the outside content", i)
		}
	}
}
