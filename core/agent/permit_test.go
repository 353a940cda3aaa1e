package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"pincer/core/permission"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

// inputApprover answers every ask with allow (or deny) and keeps the inputs
// it was shown.
type inputApprover struct {
	allow bool
	mu    sync.Mutex
	seen  []permission.Input
}

func (a *inputApprover) Approve(_ context.Context, _, _ string, in permission.Input, _ permission.Decision) Approval {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, in)
	b := permission.Deny
	if a.allow {
		b = permission.Allow
	}
	return Approval{Decision: permission.Decision{Behavior: b, Reason: "test", By: "user"}, Scope: "once"}
}

// outsideFile makes a file outside the workspace and returns its real path.
func outsideFile(t *testing.T, content string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadOutsideRunsOnceApproved is issue 12 item 3: a Read outside the
// workspace asks, and once a person approves, the tool reads the file; denied,
// it does not run; an allow rule the user wrote for that path lets it run; in
// bypassPermissions (the mode's default, no approval) the workspace guard
// still refuses it.
func TestReadOutsideRunsOnceApproved(t *testing.T) {
	file := outsideFile(t, "OUTSIDE-CONTENT\n")
	input := `{"file_path":"` + file + `"}`
	allowRule := permission.RuleSet{}.Add(permission.Allow, mustRule(t, "Read(/"+file+")"))
	otherRule := permission.RuleSet{}.Add(permission.Allow, mustRule(t, "Read(//nowhere/else)"))
	for _, tc := range []struct {
		name    string
		mode    permission.Mode
		rules   permission.RuleSet
		approve *inputApprover
		want    string // in the tool result
	}{
		{"approved", permission.ModeDefault, permission.RuleSet{}, &inputApprover{allow: true}, "OUTSIDE-CONTENT"},
		{"denied", permission.ModeDefault, permission.RuleSet{}, &inputApprover{allow: false}, "denied"},
		{"bypass without approval", permission.ModeBypass, permission.RuleSet{}, nil, "outside the workspace"},
		{"allowed by the user's rule", permission.ModeDefault, allowRule, nil, "OUTSIDE-CONTENT"},
		{"a rule for another path asks", permission.ModeDefault, otherRule, &inputApprover{allow: false}, "denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{
				providertest.ToolCalls(providertest.ToolCall("c1", "Read", input)),
				{Events: providertest.TextEvents("ok")},
			}}
			cfg := Config{PermissionMode: tc.mode, Rules: tc.rules}
			if tc.approve != nil {
				cfg.Approver = tc.approve
			}
			h := newHarnessWith(t, prov, memory.New(), cfg, tools.Typed(tools.Read{}))
			h.submit(context.Background(), "read it")
			got := h.toolResults()["c1"].Text
			if !strings.Contains(got, tc.want) {
				t.Fatalf("result = %q, want %q", got, tc.want)
			}
			if tc.want != "OUTSIDE-CONTENT" && strings.Contains(got, "OUTSIDE-CONTENT") {
				t.Fatalf("the outside file was read: %q", got)
			}
			if tc.approve != nil && len(tc.approve.seen) != 1 {
				t.Fatalf("asked %d times", len(tc.approve.seen))
			}
		})
	}
}

// TestLinkedFilled: an edit of a hard-linked file lists it in
// permission.Input.Linked (so Evaluate asks in every mode); an edit of a file
// with one link, a new file, or a read of the linked file does not.
func TestLinkedFilled(t *testing.T) {
	file := outsideFile(t, "original\n")
	ap := &inputApprover{allow: false}
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.ToolCalls( // read first: a Write of an unread file fails without asking
			providertest.ToolCall("r1", "Read", `{"file_path":"hl.txt"}`),
			providertest.ToolCall("r2", "Read", `{"file_path":"single.txt"}`),
		),
		providertest.ToolCalls(
			providertest.ToolCall("c1", "Write", `{"file_path":"hl.txt","content":"PROOF\n"}`),
			providertest.ToolCall("c2", "Write", `{"file_path":"single.txt","content":"x\n"}`),
			providertest.ToolCall("c3", "Write", `{"file_path":"new.txt","content":"x\n"}`),
		),
		{Events: providertest.TextEvents("ok")},
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{Approver: ap}, tools.Typed(tools.Write{}), tools.Typed(tools.Read{}))
	root := h.ag.cfg.Workspace.Root()
	if err := os.Link(file, filepath.Join(root, "hl.txt")); err != nil {
		t.Skipf("hard link: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "single.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.submit(context.Background(), "write")
	if len(ap.seen) != 3 {
		t.Fatalf("asked %d times, want 3", len(ap.seen))
	}
	want := []string{filepath.Join(root, "hl.txt")}
	if got := ap.seen[0].Linked; len(got) != 1 || got[0] != want[0] {
		t.Errorf("Linked for the hard link = %v, want %v", got, want)
	}
	for _, in := range ap.seen[1:] {
		if len(in.Linked) != 0 {
			t.Errorf("Linked for %v = %v, want none", in.Paths, in.Linked)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "original\n" {
		t.Errorf("the outside file changed: %q", b)
	}
	if got := hardLinked(h.ag.cfg.Workspace, []string{filepath.Join(root, "hl.txt"), filepath.Join(root, "single.txt"), file}); len(got) != 1 {
		t.Errorf("hardLinked = %v: a path outside the workspace is never examined", got)
	}
}
