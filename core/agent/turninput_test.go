package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/core/skill"
	"pincer/persist/memory"
	"pincer/tools"
)

func bashHarness(t *testing.T, cfg Config, steps ...providertest.Step) *harness {
	t.Helper()
	prov := &providertest.Scripted{Steps: steps}
	cfg.Sandbox = nil
	return newHarnessWith(t, prov, memory.New(), cfg, tools.Typed(tools.Bash{}), tools.Typed(tools.Read{}))
}

func submitInput(t *testing.T, h *harness, in TurnInput) TurnResult {
	t.Helper()
	res, err := h.ag.SubmitTurnInput(context.Background(), h.sess.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lastUser is the text of the last user message the model was sent.
func lastUser(t *testing.T, h *harness) string {
	t.Helper()
	reqs := h.prov.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never called")
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == message.RoleUser {
			return msgs[i].Text()
		}
	}
	return ""
}

func TestTurnInputExpandRunsThroughThePipeline(t *testing.T) {
	h := bashHarness(t, Config{}, providertest.Text("done"))
	root := h.ag.cfg.Workspace.Root()
	mustWriteFile(t, filepath.Join(root, "notes.md"), "NOTES-CONTENT\n")
	res := submitInput(t, h, TurnInput{Text: "/y notes", Expand: func(ctx context.Context, run PreTurn) (string, error) {
		out, err := run.Shell(ctx, "echo from-shell")
		if err != nil {
			return "", err
		}
		file, err := run.ReadFile(ctx, "notes.md")
		if err != nil {
			return "", err
		}
		return "EXPANDED " + out + file, nil
	}})
	if res.Outcome != OutcomeCompleted {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Err)
	}
	got := lastUser(t, h)
	if !strings.HasPrefix(got, "EXPANDED from-shell") || !strings.Contains(got, "NOTES-CONTENT") {
		t.Errorf("user message = %q", got)
	}
	evs := h.events()
	started := mustDecode[event.TurnStartedData](t, eventsOf(evs, event.TurnStarted)[0])
	if started.Input != "/y notes" {
		t.Errorf("turn.started input = %q, want the line as sent", started.Input)
	}
	var names []string
	for _, ev := range eventsOf(evs, event.ToolCompleted) {
		d := mustDecode[event.ToolCompletedData](t, ev)
		if !strings.HasPrefix(d.ToolCallID, "pre-") {
			t.Errorf("call ID %q", d.ToolCallID)
		}
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "Bash,Read" {
		t.Errorf("pre-turn calls %v", names)
	}
	for _, m := range h.messages() {
		if m.Role == message.RoleTool {
			t.Errorf("a pre-turn call left a transcript tool result: %s", fmtParts(m))
		}
	}
	sess, _ := h.store.GetSession(context.Background(), h.sess.ID)
	if sess.Title != "/y notes" {
		t.Errorf("title %q", sess.Title)
	}
}

// TestTurnInputAllowedToolsOneTurn: a /NAME's allowed-tools let its command
// run headless for that turn only; a deny rule still wins; nothing raises the
// mode.
func TestTurnInputAllowedToolsOneTurn(t *testing.T) {
	touch := func(name string) func(context.Context, PreTurn) (string, error) {
		return func(ctx context.Context, run PreTurn) (string, error) {
			out, err := run.Shell(ctx, "touch "+name)
			if err != nil {
				return "not run: " + err.Error(), nil
			}
			return "ran " + out, nil
		}
	}
	grant := []permission.Rule{mustRule(t, "Bash(touch:*)")}
	h := bashHarness(t, Config{},
		providertest.Text("one"),
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"touch by-model"}`)),
		providertest.Text("two"),
		providertest.Text("three"))
	root := h.ag.cfg.Workspace.Root()
	submitInput(t, h, TurnInput{Text: "/t", Expand: touch("granted"), AllowedTools: grant})
	if _, err := os.Stat(filepath.Join(root, "granted")); err != nil {
		t.Fatalf("the granted command did not run: %v (%q)", err, lastUser(t, h))
	}
	h.submit(context.Background(), "now the model tries")
	if _, err := os.Stat(filepath.Join(root, "by-model")); err == nil {
		t.Fatal("the grant outlived its turn: the model's touch ran")
	}
	submitInput(t, h, TurnInput{Text: "/t", Expand: touch("ungranted")})
	if _, err := os.Stat(filepath.Join(root, "ungranted")); err == nil {
		t.Fatal("a command without a grant ran headless")
	}
	if got := lastUser(t, h); !strings.Contains(got, "not run: Permission denied") {
		t.Errorf("user message = %q", got)
	}

	denied := bashHarness(t, Config{Rules: permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Bash(touch:*)"))}, providertest.Text("x"))
	submitInput(t, denied, TurnInput{Text: "/t", Expand: touch("despite-deny"), AllowedTools: grant})
	if _, err := os.Stat(filepath.Join(denied.ag.cfg.Workspace.Root(), "despite-deny")); err == nil {
		t.Fatal("allowed-tools beat a deny rule")
	}
	if denied.ag.Mode() != permission.ModeDefault {
		t.Errorf("mode %s", denied.ag.Mode())
	}
}

// TestAttackCommandArgumentsAreData: a project command whose !`command`
// takes $ARGUMENTS / $1, with allowed-tools granting its program, through the
// real engine and real bash: no argument form runs as shell.
func TestAttackCommandArgumentsAreData(t *testing.T) {
	templates := []string{
		// $0 is the first argument ($N is $ARGUMENTS[N], from 0, as Claude Code)
		"Log: !`echo $ARGUMENTS`", "Log: !`echo \"$0\"`", "Log: !`echo '$0'`", "Log: !`echo $(echo $0)`",
		"Log: !`git log --oneline -n 1 -- $0`", "Log: !`echo \"x$ARGUMENTS[0]\"`",
	}
	payloads := []string{
		"; touch PROOF", "&& touch PROOF", "| touch PROOF", "`touch PROOF`", "$(touch PROOF)", "'; touch PROOF; '",
		`"; touch PROOF; "`, "$(touch${IFS}PROOF)", "a\" $(touch PROOF) \"b", "> PROOF",
	}
	for _, tmpl := range templates {
		for _, payload := range payloads {
			h := bashHarness(t, Config{}, providertest.Text("ok"))
			root := h.ag.cfg.Workspace.Root()
			cmd := skill.Skill{Name: "y", Body: tmpl, Origin: skill.OriginProject, Kind: skill.KindCommand,
				AllowedTools: []string{"Bash"}} // the widest grant: the quoting alone keeps arguments data
			var rules []permission.Rule
			for _, r := range cmd.AllowedTools {
				rules = append(rules, mustRule(t, r))
			}
			submitInput(t, h, TurnInput{Text: "/y " + payload, AllowedTools: rules,
				Expand: func(ctx context.Context, run PreTurn) (string, error) {
					e, err := skill.Expand(ctx, cmd, "'"+strings.ReplaceAll(payload, "'", `'\''`)+"'", skill.GatherEnv{}, run)
					return e.Text, err
				}})
			if _, err := os.Stat(filepath.Join(root, "PROOF")); err == nil {
				t.Errorf("template %q, argument %q: PROOF created (user message %q)", tmpl, payload, lastUser(t, h))
			}
			if got := lastUser(t, h); strings.HasPrefix(tmpl, "Log: !`echo") && (strings.Contains(got, "did not run") || !strings.Contains(got, strings.Trim(payload, `"' `))) {
				t.Errorf("template %q, argument %q: the granted echo did not print the argument back: %q", tmpl, payload, got)
			}
		}
	}
}
