package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
)

// classifierRun runs one turn whose model calls Bash with command, under mode,
// with a classifier answering answer (a Step), and returns the harness, the
// Bash fake and the classifier's provider.
func classifierRun(t *testing.T, mode permission.Mode, command string, answer providertest.Step, timeout time.Duration) (*harness, *fakeTool, *providertest.Scripted) {
	t.Helper()
	cls := &providertest.Scripted{Steps: []providertest.Step{answer}}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":`+quoteJSON(command)+`}`)),
		providertest.Text("done"),
	}}
	bash := bashFake()
	cfg := Config{PermissionMode: mode, Classifier: &ModelClassifier{Provider: cls, Model: "small", Name: "fake/small", Timeout: timeout}}
	h := newHarnessWith(t, prov, memory.New(), cfg, bash)
	h.submit(context.Background(), "go")
	return h, bash, cls
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestClassifierVerdictsThroughTheEngine(t *testing.T) {
	for _, c := range []struct {
		name, command string
		mode          permission.Mode
		answer        providertest.Step
		timeout       time.Duration
		ran           bool
		by            string // the audited decision's By
		asked         bool   // the classifier got a request
	}{
		{"auto allow runs", "npm install", permission.ModeAuto, providertest.Text("allow: installs the project's dependencies"), 0, true, permission.ByClassifier, true},
		{"auto deny", "npm install", permission.ModeAuto, providertest.Text("deny: no"), 0, false, permission.ByClassifier, true},
		{"auto ask is a headless denial", "npm install", permission.ModeAuto, providertest.Text("ask: unclear"), 0, false, "headless", true},
		{"default allow does not loosen", "npm install", permission.ModeDefault, providertest.Text("allow: fine"), 0, false, "headless", true},
		{"default deny tightens", "npm install", permission.ModeDefault, providertest.Text("Deny: exfiltrates"), 0, false, permission.ByClassifier, true},
		{"two lines are no verdict", "npm install", permission.ModeAuto, providertest.Text("allow: ok\ndeny: no"), 0, false, "headless", true},
		{"prose is no verdict", "npm install", permission.ModeAuto, providertest.Text("I think this is fine to allow."), 0, false, "headless", true},
		{"failure asks", "npm install", permission.ModeAuto, providertest.Step{Err: errBoom}, 0, false, "headless", true},
		{"timeout asks", "npm install", permission.ModeAuto, providertest.Step{Block: true}, 50 * time.Millisecond, false, "headless", true},
		{"read-only needs no classifier", "ls", permission.ModeAuto, providertest.Text("deny: x"), 0, true, "read-only", false},
		{"plan is never loosened", "npm install", permission.ModePlan, providertest.Text("allow: x"), 0, false, "mode:plan", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, bash, cls := classifierRun(t, c.mode, c.command, c.answer, c.timeout)
			if ran := bash.runCount.Load() == 1; ran != c.ran {
				t.Fatalf("ran = %v, want %v", ran, c.ran)
			}
			if asked := cls.Calls() > 0; asked != c.asked {
				t.Fatalf("classifier asked = %v, want %v", asked, c.asked)
			}
			audit, err := h.store.ListAudit(context.Background(), h.sess.ID, 0)
			if err != nil || len(audit) != 1 {
				t.Fatalf("audit %+v %v", audit, err)
			}
			if audit[0].By != c.by {
				t.Fatalf("audited by %q (%s), want %q", audit[0].By, audit[0].Reason, c.by)
			}
			shown := audit[0].Reason // a verdict is audited; an ask shows it in the approval request
			for _, ev := range eventsOf(h.events(), event.PermissionRequested) {
				shown = mustDecode[event.PermissionRequestedData](t, ev).Reason
			}
			if c.asked && !strings.Contains(shown, "classifier") {
				t.Errorf("neither the audit nor the approval request names the classifier: %q", shown)
			}
			notes := 0
			for _, ev := range eventsOf(h.events(), event.Notice) {
				if mustDecode[event.NoticeData](t, ev).Source == "classifier" {
					notes++
				}
			}
			if (notes == 1) != c.asked {
				t.Errorf("%d classifier notices", notes)
			}
		})
	}
}

func TestParseVerdict(t *testing.T) {
	for in, want := range map[string]permission.Behavior{
		"allow: builds": permission.Allow, " ASK: unsure \n": permission.Ask, "deny:rm": permission.Deny,
		"allow": "", "yes: ok": "", "allow: a\nallow: b": "", "": "", "Verdict: allow": "",
	} {
		got, _, err := parseVerdict(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("parseVerdict(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
