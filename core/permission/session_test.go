package permission

import (
	"context"
	"testing"
	"time"

	"pincer/persist"
	"pincer/persist/memory"
)

func TestAuditEntryThroughStore(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	rs := rules(t, "allow:src=.pincer/config.toml;Bash(npm test:*)")
	in := bash("npm test -- -v")
	in.Summary = "npm test -- -v"
	d := Evaluate(ModeDefault, rs, in)
	at := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	if err := store.AppendAudit(ctx, NewAuditEntry("s1", "t1", "call-1", in, d, at)); err != nil {
		t.Fatal(err)
	}
	got, err := store.ListAudit(ctx, "s1", 0)
	if err != nil || len(got) != 1 {
		t.Fatalf("ListAudit = %v, %v", got, err)
	}
	want := persist.AuditEntry{SessionID: "s1", TurnID: "t1", ToolCallID: "call-1", Tool: "Bash",
		Summary: "npm test -- -v", Decision: "allow", Rule: "Bash(npm test:*)",
		By: "rule Bash(npm test:*) from .pincer/config.toml", Reason: "the command is allowed by the rule Bash(npm test:*)", Time: at}
	if got[0] != want {
		t.Fatalf("entry = %+v\nwant %+v", got[0], want)
	}
}

func TestSessionRulesThroughStore(t *testing.T) {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	granted := RuleSet{}.Add(Allow, AlwaysRules(ModeDefault, RuleSet{}, bash("make && npm ci"))...)
	if err := store.PutSessionRules(ctx, "s1", SessionRuleStrings(granted)); err != nil {
		t.Fatal(err)
	}
	ss, err := store.GetSessionRules(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	back, errs := ParseSessionRules(ss)
	if len(errs) != 0 || back.Len() != 2 || back.Allow[0].Source != SessionSource {
		t.Fatalf("session rules = %+v, %v", back, errs)
	}
	if d := Evaluate(ModeDefault, back, bash("make && npm ci")); d.Behavior != Allow ||
		d.By != "rule Bash(make) from session" {
		t.Fatalf("decision with session rules = %+v", d)
	}
}
