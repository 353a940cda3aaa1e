package permission

import "testing"

// TestEditDenyRulesSeeNamedPaths: an Edit deny rule holds against a command that
// names the file and may write it (sed -i, tee, dd of=, cp onto it), in every mode
// bypassPermissions included; a read-only command naming it is not refused by it.
func TestEditDenyRulesSeeNamedPaths(t *testing.T) {
	rules := RuleSet{Deny: []Rule{{Tool: "Edit", Specifier: "./guarded.txt"}}}
	for _, cmd := range []string{
		"sed -i s/a/b/ guarded.txt", "sed -i.bak s/a/b/ ./guarded.txt", "echo x | tee guarded.txt",
		"dd if=/dev/zero of=guarded.txt count=1", "cp other.txt guarded.txt", "echo x > guarded.txt",
		"perl -pi -e s/a/b/ guarded.txt", "truncate -s 0 guarded.txt",
	} {
		for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass} {
			in := Input{Tool: "Bash", Command: cmd, Workspace: "/w", Cwd: "/w"}
			if d := Evaluate(mode, rules, in); d.Behavior != Deny {
				t.Errorf("%s %q: %s (%s), want deny", mode, cmd, d.Behavior, d.Reason)
			}
		}
	}
	if d := Evaluate(ModeDefault, rules, Input{Tool: "Bash", Command: "cat guarded.txt", Workspace: "/w", Cwd: "/w"}); d.Behavior != Allow {
		t.Errorf("cat guarded.txt: %s (%s), want allow (an Edit rule does not deny reads)", d.Behavior, d.Reason)
	}
}
