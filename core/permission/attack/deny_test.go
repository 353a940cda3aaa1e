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
