package agent

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/core/config"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

func mustRule(t *testing.T, s string) permission.Rule {
	t.Helper()
	r, err := permission.ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// bashLike is an execute tool with a command field, as the permission engine reads it.
func bashLike() *fakeTool {
	return &fakeTool{name: "Bash", kind: tools.KindExecute, schema: `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`}
}

func TestRulesDecideAndAreAudited(t *testing.T) {
	cases := []struct {
		name  string
		mode  permission.Mode
		rules permission.RuleSet
		cmd   string
		ran   bool
	}{
		{"allow rule in default mode", permission.ModeDefault, permission.RuleSet{}.Add(permission.Allow, mustRule(t, "Bash(npm run test:*)")), "npm run test -- -v", true},
		{"allow rule does not cover a chained command", permission.ModeDefault, permission.RuleSet{}.Add(permission.Allow, mustRule(t, "Bash(npm run test:*)")), "npm run test && rm -rf build", false},
		{"deny rule beats bypass", permission.ModeBypass, permission.RuleSet{}.Add(permission.Deny, mustRule(t, "Bash(git push:*)")), "git push origin main", false},
		{"hard deny in bypass", permission.ModeBypass, permission.RuleSet{}, "rm -rf /", false},
		{"read-only command needs no rule", permission.ModeDefault, permission.RuleSet{}, "git status", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := bashLike()
			prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "Bash", `{"command":"`+c.cmd+`"}`))}}
			h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: c.mode, Rules: c.rules}, b)
			h.submit(context.Background(), "go")
			if got := b.runCount.Load() == 1; got != c.ran {
				t.Fatalf("ran = %v, want %v (result %q)", got, c.ran, h.toolResults()["c"].Text)
			}
			audit, err := h.store.ListAudit(context.Background(), h.sess.ID, 0)
			if err != nil || len(audit) != 1 || audit[0].ToolCallID != "c" || audit[0].By == "" {
				t.Errorf("audit trail %+v, %v", audit, err)
			}
		})
	}
}

// scopedApprover allows with a scope and counts the questions it was asked.
type scopedApprover struct {
	scope string
	asked int
}

func (s *scopedApprover) Approve(context.Context, string, string, permission.Input, permission.Decision) Approval {
	s.asked++
	return Approval{Decision: permission.Decision{Behavior: permission.Allow, Reason: "yes", By: "user"}, Scope: permission.Scope(s.scope)}
}

func TestApprovalScopes(t *testing.T) {
	for _, scope := range []string{"once", "session", "always"} {
		t.Run(scope, func(t *testing.T) {
			b := bashLike()
			ap := &scopedApprover{scope: scope}
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"make build"}`)),
				{Events: providertest.TextEvents("ok")},
				providertest.ToolCalls(providertest.ToolCall("c2", "Bash", `{"command":"make build"}`)),
				{Events: providertest.TextEvents("ok")},
			}}
			h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap}, b)
			h.submit(context.Background(), "one")
			h.submit(context.Background(), "two")
			want := map[string]int{"once": 2, "session": 1, "always": 1}[scope]
			if ap.asked != want || b.runCount.Load() != 2 {
				t.Errorf("asked %d times (want %d), ran %d", ap.asked, want, b.runCount.Load())
			}
			saved, err := os.ReadFile(config.LocalSettingsPath(h.ag.cfg.Workspace.Root()))
			if scope == "always" && (err != nil || !strings.Contains(string(saved), "Bash(make build)")) {
				t.Errorf("always: local settings %q, %v", saved, err)
			}
			if scope != "always" && err == nil {
				t.Errorf("%s wrote local settings: %q", scope, saved)
			}
			resolved := eventsOf(h.events(), event.PermissionResolved)
			if len(resolved) == 0 || mustDecode[event.PermissionResolvedData](t, resolved[0]).Scope != scope {
				t.Errorf("permission.resolved scope: %v", resolved)
			}
		})
	}
}

func TestPlanModeHidesWritingTools(t *testing.T) {
	r := &fakeTool{name: "R", kind: tools.KindRead}
	w := &fakeTool{name: "W", kind: tools.KindEdit}
	prov := &providertest.Scripted{}
	h := newHarness(t, prov, permission.ModePlan, r, w)
	h.submit(context.Background(), "plan it")
	var names []string
	for _, s := range prov.Request(0).Tools {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "R" {
		t.Errorf("tools offered in plan mode: %v", names)
	}
}

func TestSetPermissionModeAppliesToTheNextDecision(t *testing.T) {
	b := bashLike()
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls(providertest.ToolCall("c1", "Bash", `{"command":"make"}`)), {Events: providertest.TextEvents("ok")},
		providertest.ToolCalls(providertest.ToolCall("c2", "Bash", `{"command":"make"}`)), {Events: providertest.TextEvents("ok")},
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{}, b)
	h.submit(context.Background(), "one")
	if b.runCount.Load() != 0 {
		t.Fatal("default mode ran a command headless")
	}
	h.ag.SetPermissionMode(permission.ModeBypass)
	h.submit(context.Background(), "two")
	if b.runCount.Load() != 1 || h.ag.Mode() != permission.ModeBypass {
		t.Errorf("after switching to bypass: ran %d, mode %s", b.runCount.Load(), h.ag.Mode())
	}
}

// queueApprover waits for Resolve, like the workbench's queue.
type queueApprover struct {
	mu      sync.Mutex
	waiting map[string]chan Approval
}

func (q *queueApprover) Approve(ctx context.Context, _, requestID string, _ permission.Input, _ permission.Decision) Approval {
	ch := make(chan Approval, 1)
	q.mu.Lock()
	q.waiting[requestID] = ch
	q.mu.Unlock()
	select {
	case a := <-ch:
		return a
	case <-ctx.Done():
		return Approval{Decision: permission.Decision{Behavior: permission.Deny, Reason: "cancelled"}}
	}
}

func (q *queueApprover) Answer(requestID string, a Approval) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	ch, ok := q.waiting[requestID]
	if ok {
		delete(q.waiting, requestID)
		ch <- a
	}
	return ok
}

func TestResolveAnswersAPendingRequest(t *testing.T) {
	b := bashLike()
	q := &queueApprover{waiting: map[string]chan Approval{}}
	prov := &providertest.Scripted{Steps: []providertest.Step{providertest.ToolCalls(providertest.ToolCall("c", "Bash", `{"command":"make"}`))}}
	h := newHarnessWith(t, prov, memory.New(), Config{Approver: q}, b)
	go func() {
		for {
			evs, _ := h.store.ListEvents(context.Background(), h.sess.ID, 0, 0)
			if req := eventsOf(evs, event.PermissionRequested); len(req) == 1 {
				id := mustDecode[event.PermissionRequestedData](t, req[0]).RequestID
				if err := h.ag.Resolve("nope", permission.Allow, "", ""); !errors.Is(err, ErrNoSuchRequest) {
					t.Errorf("Resolve of an unknown request: %v", err)
				}
				_ = h.ag.Resolve(id, permission.Deny, "", "use make test instead")
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	h.submit(context.Background(), "go")
	if r := h.toolResults()["c"]; b.runCount.Load() != 0 || !strings.Contains(r.Text, "use make test instead") {
		t.Errorf("ran %d, result %q", b.runCount.Load(), r.Text)
	}
}
