package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/persist"
)

// TestProposeWritesNothing: a proposal is a pending candidate in the store
// and a candidate.proposed event; no file appears anywhere.
func TestProposeWritesNothing(t *testing.T) {
	f := newFixture(t)
	c := f.propose(t, "indent with tabs", "We indent with tabs.")
	if c.Status != StatusPending || c.Op != OpAdd || c.Scope != ScopeProject ||
		c.Target != filepath.Join(f.m.Paths().ProjectDir, "indent-with-tabs.md") {
		t.Fatalf("candidate = %+v", c)
	}
	if got := files(t, filepath.Dir(f.m.ConfigDir)); len(got) != 0 {
		t.Fatalf("a proposal wrote %v", got)
	}
	evs, _ := f.m.Log.Read(f.ctx, "s1", 0, 0)
	if len(evs) != 1 || evs[0].Type != event.CandidateProposed {
		t.Fatalf("events = %+v, want one candidate.proposed", evs)
	}
	p, err := evs[0].Payload()
	if d, ok := p.(event.CandidateProposedData); err != nil || !ok || d.ID != c.ID || d.Type != TypeFeedback || d.Content != c.Content {
		t.Fatalf("payload = %#v, %v", p, err)
	}
}

// TestAcceptWritesFileAndIndexLine: accepting writes the memory file with
// its frontmatter and the MEMORY.md line, marks the candidate applied and
// audits the decision and the write.
func TestAcceptWritesFileAndIndexLine(t *testing.T) {
	f := newFixture(t)
	c := f.propose(t, "indent with tabs", "We indent with tabs.")
	got, err := f.m.Decide(f.ctx, "s1", c.ID, Decision{Action: Accept})
	if err != nil || got.Status != StatusAccepted || got.AppliedAt.IsZero() {
		t.Fatalf("Decide = %+v, %v", got, err)
	}
	file, err := ParseFile(c.Target, []byte(readFile(t, c.Target)))
	if err != nil || file.Type != TypeFeedback || file.Name != "indent with tabs" || file.Source.Session != "s1" ||
		file.Source.Turn != 1 || file.Body != "We indent with tabs.\n" || file.Created.IsZero() {
		t.Fatalf("memory file = %+v, %v", file, err)
	}
	index := readFile(t, f.m.Paths().ProjectIndex())
	if index != "- [indent with tabs](indent-with-tabs.md) — how we indent\n" {
		t.Fatalf("MEMORY.md = %q", index)
	}
	audit, _ := f.store.ListAudit(f.ctx, "s1", 0)
	if len(audit) != 2 || audit[0].Tool != "Memory" || !strings.HasPrefix(audit[0].Summary, "write "+c.Target) ||
		audit[1].Decision != "allow" {
		t.Fatalf("audit = %+v", audit)
	}
}

// TestRejectLeavesNoFile: a rejected candidate writes nothing, and can be
// neither accepted afterwards nor applied.
func TestRejectLeavesNoFile(t *testing.T) {
	f := newFixture(t)
	c := f.propose(t, "indent with tabs", "We indent with tabs.")
	if _, err := f.m.Decide(f.ctx, "s1", c.ID, Decision{Action: Reject, Reason: "not true"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Decide(f.ctx, "s1", c.ID, Decision{Action: Accept}); !errors.Is(err, persist.ErrDecided) {
		t.Fatalf("accept after reject: %v, want ErrDecided", err)
	}
	if _, err := f.m.Apply(f.ctx, c.ID); !errors.Is(err, persist.ErrNotAccepted) {
		t.Fatalf("Apply of a rejected one: %v, want ErrNotAccepted", err)
	}
	if got := files(t, filepath.Dir(f.m.ConfigDir)); len(got) != 0 {
		t.Fatalf("a rejection wrote %v", got)
	}
}

// TestAcceptEditedWritesEditedText: the person's edit (a new body, or a
// whole file) is what is written; the proposed text is kept in the store.
func TestAcceptEditedWritesEditedText(t *testing.T) {
	f := newFixture(t)
	c := f.propose(t, "indent with tabs", "We indent with tabs.")
	got, err := f.m.Decide(f.ctx, "s1", c.ID, Decision{Action: AcceptEdited, Text: "We indent with tabs, width 4."})
	if err != nil || !got.Edited || got.Proposed != c.Content {
		t.Fatalf("Decide = %+v, %v", got, err)
	}
	if body := readFile(t, c.Target); !strings.HasSuffix(body, "\nWe indent with tabs, width 4.\n") {
		t.Fatalf("file = %q, want the edited body", body)
	}
}

// TestDecideInAnotherSessionRefused: a front end of session s2 cannot decide
// s1's candidate; nothing is written and the candidate stays pending.
func TestDecideInAnotherSessionRefused(t *testing.T) {
	f := newFixture(t)
	c := f.propose(t, "indent with tabs", "We indent with tabs.")
	if _, err := f.m.Decide(f.ctx, "s2", c.ID, Decision{Action: Accept}); !errors.Is(err, persist.ErrWrongSession) {
		t.Fatalf("Decide from s2: %v, want ErrWrongSession", err)
	}
	if _, err := os.Lstat(c.Target); !os.IsNotExist(err) {
		t.Fatalf("target exists after a refused decision: %v", err)
	}
	if got, _ := f.store.GetCandidate(f.ctx, c.ID); got.Status != StatusPending {
		t.Fatalf("status = %s", got.Status)
	}
}

// TestAcceptedTextHasNoControls: a candidate's body and a person's edit are
// written without escape sequences, C1 controls or bidirectional overrides
// (a file read with cat must not set the terminal's title or clipboard);
// tabs, newlines and an emoji's ZWJ stay.
func TestAcceptedTextHasNoControls(t *testing.T) {
	f := newFixture(t)
	hostile := "Title \x1b]0;PWNED\x07 clip \x1b]52;c;UFdORUQ=\x07 clear \x1b[2J c1 \u009b31m rlo \u202egnp.exe\tok\nfamily 👨\u200d👩\u200d👧\n"
	c := f.propose(t, "controls", hostile)
	if _, err := f.m.Decide(f.ctx, "s1", c.ID, Decision{Action: Accept}); err != nil {
		t.Fatal(err)
	}
	c2 := f.propose(t, "controls edited", "plain")
	if _, err := f.m.Decide(f.ctx, "s1", c2.ID, Decision{Action: AcceptEdited, Text: hostile}); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{c.Target, c2.Target} {
		body := readFile(t, target)
		if strings.ContainsAny(body, "\x1b\x07\u009b\u202e\r") {
			t.Errorf("%s holds control characters: %q", target, body)
		}
		if !strings.Contains(body, "gnp.exe\tok\nfamily 👨\u200d👩\u200d👧") {
			t.Errorf("%s lost its text, tab, newline or ZWJ: %q", target, body)
		}
	}
}
