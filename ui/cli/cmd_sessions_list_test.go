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
