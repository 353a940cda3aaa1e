package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
)

// TestClearSaysAShadowedCommandOnce: a project command added while the
// workbench runs and named as a built-in (/review) is passed over for it;
// the session /clear makes says so in a notice, and the next /clear does not
// repeat it (new user r19: the rescan's warnings were dropped, so the file
// was passed over silently).
func TestClearSaysAShadowedCommandOnce(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	root := t.TempDir()
	t.Chdir(root)
	for _, k := range []string{"PINCER_MODEL", "PINCER_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		t.Setenv(k, "")
	}
	ctx := context.Background()
	s, err := Prepare(Options{ModelOptional: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	be := &Backend{Agent: r.Agent, Store: r.Store, Approvals: NewApprovalQueue(), RescanCommands: s.RescanSkills}
	if err := os.MkdirAll(filepath.Join(root, ".claude/commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude/commands/review.md"), []byte("Review my way.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notices := func(id string) []string {
		evs, err := be.Log().Read(ctx, id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ev := range evs {
			var d event.NoticeData
			if ev.Type == event.Notice && ev.Decode(&d) == nil && d.Source == "skills" {
				out = append(out, d.Message)
			}
		}
		return out
	}
	first, err := be.NewSession(ctx, r.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	got := notices(first)
	if len(got) != 1 || !strings.Contains(got[0], "/review") || !strings.Contains(got[0], "review.md") || !strings.Contains(got[0], "builtin") {
		t.Fatalf("the first /clear's notices: %q", got)
	}
	second, err := be.NewSession(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if got := notices(second); len(got) != 0 {
		t.Errorf("the second /clear repeats: %q", got)
	}
}
