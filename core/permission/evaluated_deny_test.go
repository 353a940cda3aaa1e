package permission

import (
	"strings"
	"testing"
)

// A command holding code bash evaluates from text, or defining code bash
// runs later, or an editor given shell commands as arguments, matches every
// Bash deny rule: in bypassPermissions with Bash(rm:*) none is allowed (the
// red team's forms, which deleted V, and their relatives).
var evaluatedDenyForms = []string{
	`printf -v 'a[$(rm V)]' x`,
	"printf -v 'a[`rm V`]' x",
	`printf -va'[$(rm V)]' x`,
	`read 'a[$(rm V)]' <<< x`,
	`unset 'a[$(rm V)]'`,
	`declare 'a[$(rm V)]=1'`,
	`test -v 'a[$(rm V)]'`,
	`[ -v 'a[$(rm V)]' ]`,
	`[[ -v 'a[$(rm V)]' ]]`,
	`[[ 1 -eq 'a[$(rm V)]' ]]`,
	`let 'a[$(rm V)]'`,
	`(( a['$(rm V)'] ))`,
	`mapfile -C 'rm V;:' -c 1 a <<< x`,
	`mapfile -tC 'rm V;:' -c 1 a <<< x`,
	`readarray --callback 'rm V;:' a <<< x`,
	`readarray -C 'rm V;:' a <<< x`,
	"shopt -s expand_aliases\nalias del=rm\ndel V",
	"alias del='rm V'",
	`complete -C 'rm V' x`,
	`bind -x '"\C-x": rm V'`,
	`enable -f ./evil.so evil`,
	`PROMPT_COMMAND='rm V' bash -i`,
	`BASH_ENV=./evil bash -c true`,
	`export PROMPT_COMMAND='rm V'`,
	`ENV=./evil sh -c true`,
	`PS4='$(rm V)' bash -xc true`,
	`LESSOPEN='|rm V' less f`,
	`source "$F"`,
	`. "$(echo ./evil)"`,
	`source <(echo rm V)`,
	`ex -sc '!rm V' -c q`,
	`ex -c '!rm V' -c q`,
	`vi -c '!rm V' -c q`,
	`vim -c '!rm V' -c q`,
	`vim --cmd '!rm V'`,
	`vim '+!rm V' f`,
	`nvim -c 'call system("rm V")' -c q`,
	`vim -c "$C" f`,
	`less '+!rm V' f`,
	`more '+!rm V' f`,
	"printf 'all:\\n\\trm V\\n' > M; make -f M",
	`make -f M`,
	`make --eval='all: ; rm V'`,
	`make -E 'all: ; rm V'`,
	`trap 'rm V' EXIT`,
	`x='$(rm V)'; trap "$x" EXIT`,
}

// evaluatedControls are plain uses of the same builtins: still allowed in
// bypassPermissions with the deny rule (no false positives).
var evaluatedControls = []string{
	`printf -v x '%s' y`,
	`printf '%s\n' "$(date)"`,
	`mapfile -t a < f`,
	`readarray -t a < f`,
	`echo hi`,
	`read -r line < f`,
	`declare x="$(date)"`,
	`local_var=1; (( local_var + 1 ))`,
	`test -n "$x"`,
	`alias`,
	`vim f`,
	`vim +10 f`,
	`vim -c 'set nu' f`,
	`less +G f`,
	`make`,
	`make test`,
	`source ./env.sh`,
	`export FOO=1`,
	`trap - EXIT`,
}

// notCoveredForms delete V under another name or from their own input; a
// deny rule naming rm does not see them (docs/SECURITY.md, "Not covered").
var notCoveredForms = []string{
	`unlink V`,
	`find . -name V -delete`,
	`git rm -f V`,
	`ln -s /bin/rm x; ./x V`,
	`cp /bin/rm x; ./x V`,
}

func TestEvaluatedCodeMatchesDenyRules(t *testing.T) {
	rules := RuleSet{Deny: []Rule{mustRule(t, "Bash(rm:*)")}}
	ask := RuleSet{Ask: []Rule{mustRule(t, "Bash(rm:*)")}}
	allowed := 0
	for _, src := range evaluatedDenyForms {
		d := Evaluate(ModeBypass, rules, bash(src))
		if d.Behavior == Allow {
			allowed++
			t.Errorf("allowed in bypassPermissions despite Bash(rm:*) (%s):\n%s", d.Reason, src)
		}
		if d := Evaluate(ModeBypass, ask, bash(src)); d.Behavior == Allow &&
			!strings.Contains(src, "make") {
			t.Errorf("allowed in bypassPermissions despite the ask rule Bash(rm:*) (%s):\n%s", d.Reason, src)
		}
	}
	for _, src := range evaluatedControls {
		if d := Evaluate(ModeBypass, rules, bash(src)); d.Behavior != Allow {
			t.Errorf("plain use not allowed in bypassPermissions with Bash(rm:*): %s (%s: %s)", src, d.Behavior, d.Reason)
		}
	}
	for _, src := range notCoveredForms {
		d := Evaluate(ModeBypass, rules, bash(src))
		t.Logf("not covered (documented): %s -> %s", src, d.Behavior)
	}
	t.Logf("%d forms, %d allowed", len(evaluatedDenyForms), allowed)
}

func mustRule(t *testing.T, s string) Rule {
	t.Helper()
	r, err := ParseRule(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
