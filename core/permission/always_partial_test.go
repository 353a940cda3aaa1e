package permission

import (
	"strings"
	"testing"
)

// TestAlwaysOfferSaysWhenPartial (new user r24 #1): an offer whose rules
// would not make the same line run unasked says so; one that covers it, and
// a line with nothing to save, say nothing of the kind.
func TestAlwaysOfferSaysWhenPartial(t *testing.T) {
	ws := t.TempDir()
	for _, c := range []struct {
		cmd     string
		partial bool
	}{
		{`for i in $(seq 1 1000); do echo tick $i; sleep 1; done`, true},
		{`npm test`, false},
		{`npm test && make build`, false},
	} {
		in := Input{Tool: "Bash", Command: c.cmd, Workspace: ws, Cwd: ws}
		o := AlwaysOffer(ModeDefault, RuleSet{}, in)
		got := strings.Contains(o.Note, "will ask again")
		if got != c.partial {
			t.Errorf("%q: note %q (rules %v), want partial %v", c.cmd, o.Note, o.Rules, c.partial)
		}
		if c.partial {
			d := Evaluate(ModeDefault, RuleSet{}, in)
			if !strings.Contains(d.Reason, "will ask again") {
				t.Errorf("%q: the approval's reason lacks the note: %q", c.cmd, d.Reason)
			}
		}
	}
}
