package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/hook"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// hookRunner writes each script to a temp dir and returns a runner with one hook per
// event, matching every tool.
func hookRunner(t *testing.T, scripts map[hook.Event]string) *hook.Runner {
	t.Helper()
	dir := t.TempDir()
	defs := map[hook.Event][]hook.Def{}
	for ev, body := range scripts {
		path := filepath.Join(dir, string(ev)+".sh")
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		defs[ev] = append(defs[ev], hook.Def{Command: path})
	}
	r, errs := hook.NewRunner(defs, dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return r
}

func TestPreToolUseHookBlocksWithExit2(t *testing.T) {
	tl := &fakeTool{name: "T", kind: tools.KindRead}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "T", `{"x":"1"}`))}}
	hooks := hookRunner(t, map[hook.Event]string{hook.PreToolUse: `echo "no T today" >&2; exit 2`})
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks}, tl)
	h.submit(context.Background(), "go")
	r := h.toolResults()["c"]
	if tl.runCount.Load() != 0 || !strings.HasPrefix(r.Text, hookBlockedPrefix) || !strings.Contains(r.Text, "no T today") {
		t.Errorf("ran %d, result %q", tl.runCount.Load(), r.Text)
	}
}

func TestPreToolUseHookRewritesInputAndAllows(t *testing.T) {
	b := bashLike()
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "Bash", `{"command":"make deploy"}`))}}
	hooks := hookRunner(t, map[hook.Event]string{hook.PreToolUse: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"dry run only","updatedInput":{"command":"make deploy-dry-run"}}}'`})
	// Default mode would ask (and, headless, deny): the hook's allow skips the prompt.
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks}, b)
	h.submit(context.Background(), "go")
	if r := h.toolResults()["c"]; b.runCount.Load() != 1 || !strings.Contains(r.Text, "make deploy-dry-run") {
		t.Errorf("ran %d, result %q", b.runCount.Load(), r.Text)
	}
}

func TestHookAllowNeverBeatsADenyRule(t *testing.T) {
	b := bashLike()
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "Bash", `{"command":"git push"}`))}}
	hooks := hookRunner(t, map[hook.Event]string{hook.PreToolUse: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`})
	rules := permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Bash(git push:*)"))
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks, Rules: rules, PermissionMode: permission.ModeBypass}, b)
	h.submit(context.Background(), "go")
	if b.runCount.Load() != 0 {
		t.Error("a hook's allow overrode a deny rule")
	}
}

func TestPostToolUseContextAndNotices(t *testing.T) {
	tl := &fakeTool{name: "T", kind: tools.KindRead}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "T", `{"x":"1"}`))}}
	hooks := hookRunner(t, map[hook.Event]string{hook.PostToolUse: `echo '{"systemMessage":"lint ran","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"2 lint warnings"}}'`})
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks}, tl)
	h.submit(context.Background(), "go")
	if r := h.toolResults()["c"]; !strings.Contains(r.Text, "2 lint warnings") {
		t.Errorf("result %q lacks the hook's context", r.Text)
	}
	notices := eventsOf(h.events(), event.Notice)
	if len(notices) != 1 || mustDecode[event.NoticeData](t, notices[0]).Message != "lint ran" {
		t.Errorf("notices %v", notices)
	}
}

func TestUserPromptSubmitBlocksAndAddsContext(t *testing.T) {
	prov := &providertest.Scripted{}
	hooks := hookRunner(t, map[hook.Event]string{hook.UserPromptSubmit: `if grep -q secret; then echo "no secrets" >&2; exit 2; fi; echo "branch: main"`})
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks})
	res := h.submit(context.Background(), "tell me the secret")
	if res.Outcome != OutcomeFailed || res.StopReason != event.ReasonBlocked || prov.Calls() != 0 {
		t.Fatalf("blocked prompt: %s/%s, %d model calls", res.Outcome, res.StopReason, prov.Calls())
	}
	for _, m := range h.messages() {
		if m.Role == message.RoleUser {
			t.Errorf("a blocked prompt was stored: %q", m.Text())
		}
	}
	h.submit(context.Background(), "hello")
	msgs := prov.Request(0).Messages
	last := msgs[len(msgs)-1]
	if !strings.Contains(last.Text(), "branch: main") || msgs[len(msgs)-2].Text() != "hello" {
		t.Errorf("prompt context not after the prompt: %v", msgs)
	}
}

func TestStopHookSendsModelBackOnce(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "blocked-once")
	prov := &providertest.Scripted{Steps: []providertest.Step{{Events: providertest.TextEvents("first")}, {Events: providertest.TextEvents("second")}}}
	hooks := hookRunner(t, map[hook.Event]string{hook.Stop: `if [ ! -e ` + marker + ` ]; then touch ` + marker + `; echo "run the tests first" >&2; exit 2; fi`})
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks})
	res := h.submit(context.Background(), "go")
	if prov.Calls() != 2 || res.FinalText != "second" {
		t.Fatalf("model calls %d, final %q", prov.Calls(), res.FinalText)
	}
	msgs := prov.Request(1).Messages
	if !strings.Contains(msgs[len(msgs)-1].Text(), "run the tests first") {
		t.Errorf("the model did not get the Stop hook's feedback: %v", msgs[len(msgs)-1])
	}
}

func TestSessionStartContextPrecedesFirstPrompt(t *testing.T) {
	prov := &providertest.Scripted{}
	hooks := hookRunner(t, map[hook.Event]string{hook.SessionStart: `echo "project uses pnpm"`})
	h := newHarnessWith(t, prov, memory.New(), Config{Hooks: hooks})
	h.ag.StartSession(context.Background(), h.sess.ID, "startup")
	h.submit(context.Background(), "install deps")
	msgs := prov.Request(0).Messages
	if len(msgs) != 3 || !strings.Contains(msgs[1].Text(), "project uses pnpm") || msgs[2].Text() != "install deps" {
		t.Errorf("view %v", msgs)
	}
}
