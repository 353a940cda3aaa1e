package attack

import (
	"testing"

	"pincer/core/permission"
)

// disguises run `touch PROOF` dressed so that a rule naming touch might
// not see it (issue 10, class 11). In bypassPermissions with the deny rule
// Bash(touch:*), none may be allowed; those that are are run, and must
// not create PROOF.
var disguises = []string{
	"touch PROOF", "/usr/bin/touch PROOF", "/bin/touch PROOF", "../../../../../../usr/bin/touch PROOF",
	`\touch PROOF`, `"tou""ch" PROOF`, `'touch' PROOF`, `t\ouch PROOF`,
	"exec touch PROOF", "exec -a x touch PROOF", "command touch PROOF", "command -p touch PROOF",
	"builtin command touch PROOF", "env touch PROOF", "env -i touch PROOF", "env -i -u HOME A=1 touch PROOF",
	"env -C . touch PROOF", "env -S 'touch PROOF'", "nice touch PROOF", "nice -n 5 touch PROOF",
	"nohup touch PROOF", "timeout 5 touch PROOF", "timeout -s KILL 5 touch PROOF", "timeout --signal=KILL 5s touch PROOF",
	"stdbuf -oL touch PROOF", "time touch PROOF", "time -p touch PROOF", "setsid -w touch PROOF",
	"ionice -c 3 touch PROOF", "nice timeout 5 env -i nohup /usr/bin/touch PROOF",
	"echo PROOF | xargs touch", "xargs touch <<< PROOF", "echo PROOF | xargs -I{} touch {}",
	"find . -maxdepth 0 -exec touch PROOF \\;", "find . -maxdepth 0 -execdir /usr/bin/touch PROOF \\;",
	"$(echo touch) PROOF", "`echo touch` PROOF", "t${IFS:0:0}ouch PROOF", "x=touch; $x PROOF", `"$(printf touch)" PROOF`,
	"printf 'touch PROOF' | sh", "echo touch PROOF | bash", "echo touch PROOF | bash -s", "sh <<< 'touch PROOF'",
	"bash <<'EOF'\ntouch PROOF\nEOF", "bash -c 'touch PROOF'", "sh -c 'exec touch PROOF'", "bash -lc 'nice touch PROOF'",
	"eval 'touch PROOF'", "builtin eval 'touch PROOF'", "command eval touch PROOF", `eval "$(echo touch PROOF)"`,
	"ls; touch PROOF", "ls && touch PROOF", "(touch PROOF)", "{ touch PROOF; }", "if true; then touch PROOF; fi",
	"echo $(touch PROOF)", "cat <(touch PROOF)", "f() { touch PROOF; }; f", "bash <(echo touch PROOF)",
	"source <(echo touch PROOF)", ". /dev/stdin <<< 'touch PROOF'", "sudo touch PROOF", "doas touch PROOF",
}

func TestDenyRuleThroughDisguises(t *testing.T) {
	work, home := setup(t)
	rule, err := permission.ParseRule("Bash(touch:*)")
	if err != nil {
		t.Fatal(err)
	}
	rules := permission.RuleSet{Deny: []permission.Rule{rule}}
	allowedN := 0
	for _, src := range disguises {
		d := permission.Evaluate(permission.ModeBypass, rules, permission.Input{
			Tool: "Bash", Kind: permission.KindExecute, Command: src, Workspace: work, Cwd: work, Home: home})
		if d.Behavior != permission.Allow {
			continue
		}
		allowedN++
		found := run(t, src, work, home)
		t.Errorf("allowed in bypassPermissions despite Bash(touch:*) (%s), created PROOF: %v:\n%s", d.Reason, len(found) > 0, src)
	}
	t.Logf("%d disguises, %d allowed", len(disguises), allowedN)
}

// TestDenyRulesIssueForms: the deny-rule evasions the issue found in
// bypassPermissions (16 of 34 tries), and their relatives, are denied or
// asked, never allowed. None is run.
func TestDenyRulesIssueForms(t *testing.T) {
	var rules permission.RuleSet
	for _, s := range []string{"Bash(rm:*)", "Bash(git push:*)", "Bash(curl:*)"} {
		r, err := permission.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		rules.Deny = append(rules.Deny, r)
	}
	tries := []string{
		"/bin/rm x", "/usr/bin/rm x", "./bin/rm x", "sudo rm x", "sudo -u root rm x", "doas rm x", "exec rm x",
		"command rm x", "builtin command rm x", "env rm x", "env -i -u A rm x", "nice -n 5 rm x", "nohup rm x",
		"timeout -s KILL 5 rm x", "time rm x", "stdbuf -oL rm x", "echo x | xargs rm", "setsid rm x",
		"$(echo rm) x", "`echo rm` x", "rm${IFS}x", `"r""m" x`, `\rm x`, "printf rm | sh", "echo 'rm x' | bash",
		"sh -c 'rm x'", "eval rm x", "git -C . push", "git -c a=b push", "git --git-dir=.git push",
		"git --no-pager push", "git --work-tree=. push origin", "/usr/bin/git push", "sudo git push",
		"git -C sub -C .. push --force", "env git -c x=y push", "/usr/bin/curl x", "sudo curl x", "exec curl x",
		"command -p curl x", "timeout 5 /usr/bin/curl x", "x=curl; $x y", "${CURL:-curl} x",
	}
	for _, src := range tries {
		d := permission.Evaluate(permission.ModeBypass, rules, permission.Input{
			Tool: "Bash", Kind: permission.KindExecute, Command: src, Workspace: "/w", Cwd: "/w", Home: "/h"})
		if d.Behavior == permission.Allow {
			t.Errorf("%q allowed in bypassPermissions despite the deny rules: %s", src, d.Reason)
		}
	}
}
