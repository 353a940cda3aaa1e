package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/memory"
)

// TestListSessionsSkipsNoPrompt: `pincer sessions` (table and --json) does not
// list a session in which no prompt was ever sent (an open workbench's fresh
// session, or one a crash left), as the README says; with only such sessions
// it says there are none.
func TestListSessionsSkipsNoPrompt(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	now := time.Now().UTC()
	for _, s := range []persist.Session{
		{ID: "20260101-000000-prompted", Title: "fix the parser", Cwd: "/p", CreatedAt: now, UpdatedAt: now},
		{ID: "20260101-000001-noprompt", Cwd: "/p", CreatedAt: now, UpdatedAt: now.Add(time.Second)},
	} {
		if err := store.PutSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var table bytes.Buffer
	if err := listSessions(ctx, store, &table, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "prompted") || strings.Contains(table.String(), "noprompt") {
		t.Errorf("table:\n%s", table.String())
	}
	var out bytes.Buffer
	if err := listSessions(ctx, store, &out, true); err != nil {
		t.Fatal(err)
	}
	var list []persist.Session
	if err := json.Unmarshal(out.Bytes(), &list); err != nil || len(list) != 1 || list[0].ID != "20260101-000000-prompted" {
		t.Errorf("--json: %s (%v)", out.String(), err)
	}

	empty := memory.New()
	if err := empty.PutSession(ctx, persist.Session{ID: "20260101-000002-noprompt", CreatedAt: now, UpdatedAt: now}); err != nil {
		t.Fatal(err)
	}
	table.Reset()
	if err := listSessions(ctx, empty, &table, false); err != nil || !strings.Contains(table.String(), "No sessions yet") {
		t.Errorf("only an empty session: %q (%v)", table.String(), err)
	}
}

// TestSessionsNestChildren: `pincer sessions` lists a subagent's child
// session indented under its parent, its title led by its type; --json gives
// its parentId; `pincer sessions show PARENT` names its children and the
// child's names its parent.
func TestSessionsNestChildren(t *testing.T) {
	ctx := t.Context()
	store := memory.New()
	now := time.Now().UTC()
	for _, s := range []persist.Session{
		{ID: "20260101-000000-parent", Title: "explore it", Cwd: "/p", CreatedAt: now, UpdatedAt: now},
		{ID: "20260101-000001-other", Title: "other work", Cwd: "/p", CreatedAt: now, UpdatedAt: now.Add(time.Second)},
		{ID: "20260101-000002-child", Title: "find the loader", Cwd: "/p", CreatedAt: now, UpdatedAt: now.Add(2 * time.Second),
			ParentID: "20260101-000000-parent", ParentToolCallID: "a1", AgentType: "Explore", Status: "idle"},
	} {
		if err := store.PutSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var table bytes.Buffer
	if err := listSessions(ctx, store, &table, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "20260101-000001-other") || !strings.HasPrefix(lines[2], "20260101-000000-parent") ||
		!strings.HasPrefix(lines[3], "└ 20260101-000002-child") || !strings.Contains(lines[3], "[Explore] find the loader") {
		t.Errorf("table:\n%s", table.String())
	}
	var out bytes.Buffer
	if err := listSessions(ctx, store, &out, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"parentId":"20260101-000000-parent"`) {
		t.Errorf("--json has no parentId: %s", out.String())
	}
	var show bytes.Buffer
	if err := showSession(ctx, store, "20260101-000000-parent", &show, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(show.String(), "Subagents (1):\n  20260101-000002-child  [Explore]  idle  find the loader") {
		t.Errorf("show of the parent:\n%s", show.String())
	}
	show.Reset()
	if err := showSession(ctx, store, "20260101-000002-child", &show, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(show.String(), "Subagent Explore of session 20260101-000000-parent (tool call a1)") {
		t.Errorf("show of the child:\n%s", show.String())
	}
}
