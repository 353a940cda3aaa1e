package e2e

// Issue 10, class 1: "read-only" commands that execute code. Bash evaluates array
// subscripts inside arithmetic, so test/[/[[/(( )) and arithmetic, indirection and
// @-operator expansions run a command substitution hidden in a variable's value.
// In default mode with no rules none of these may run unasked, and under an
// echo/ls allow rule only a command whose words are all literal may match.

import (
	"path/filepath"
	"strconv"
	"testing"
)

// subscriptPayload is a value that runs touch {P} when bash evaluates it as an
// arithmetic expression (an array subscript is expanded, $(…) included).
const subscriptPayload = `'a[$(touch {P})]'`

func readOnlyExecForms() []attackForm {
	p := subscriptPayload
	return []attackForm{
		{Name: "dbl-bracket-eq", Cmd: `[[ 1 -eq ` + p + ` ]]`},
		{Name: "dbl-bracket-eq-left", Cmd: `[[ ` + p + ` -eq 1 ]]`},
		{Name: "dbl-bracket-ne", Cmd: `[[ 1 -ne ` + p + ` ]]`},
		{Name: "dbl-bracket-lt", Cmd: `[[ ` + p + ` -lt 2 ]]`},
		{Name: "dbl-bracket-v", Cmd: `[[ -v ` + p + ` ]]`},
		{Name: "test-v", Cmd: `test -v ` + p},
		{Name: "bracket-v", Cmd: `[ -v ` + p + ` ]`},
		{Name: "var-then-dbl-bracket", Cmd: `x=` + p + `; [[ $x -eq 1 ]]`},
		{Name: "var-then-test-quoted", Cmd: `x=` + p + `; test "$x" -eq 1`},
		{Name: "arith-cmd-var", Cmd: `x=` + p + `; (( x ))`},
		{Name: "arith-cmd-direct", Cmd: `(( a[$(touch {P})] ))`},
		{Name: "echo-arith-var", Cmd: `x=` + p + `; echo $((x))`},
		{Name: "echo-arith-plus", Cmd: `x=` + p + `; echo $((x+1))`},
		{Name: "echo-old-arith", Cmd: `x=` + p + `; echo $[x]`},
		{Name: "echo-indirect", Cmd: `x=` + p + `; echo ${!x}`},
		{Name: "ls-subscript", Cmd: `x=` + p + `; ls ${a[x]}`},
		{Name: "echo-subscript-len", Cmd: `x=` + p + `; echo ${#a[x]}`},
		{Name: "echo-substring-offset", Cmd: `x=` + p + `; echo ${HOME:x}`},
		{Name: "echo-substring-length", Cmd: `x=` + p + `; echo ${HOME:0:x}`},
		{Name: "echo-prompt-op", Cmd: `x='$(touch {P})'; echo ${x@P}`},
		{Name: "ls-prompt-op", Cmd: `x='$(touch {P})'; ls ${x@P}`},
		{Name: "echo-cmdsub-default", Cmd: `echo ${x:-$(touch {P})}`},
		{Name: "echo-cmdsub-assign-default", Cmd: `echo ${x:=$(touch {P})}`},
		{Name: "echo-quoted-cmdsub", Cmd: `echo "$(touch {P})"`},
		{Name: "echo-backticks", Cmd: "echo `touch {P}`"},
		{Name: "cat-procsub", Cmd: `cat <(touch {P})`},
		{Name: "dbl-bracket-cmdsub", Cmd: `[[ -n $(touch {P}) ]]`},
		{Name: "printf-v-subscript", Cmd: `printf -v ` + p + ` x`},
		{Name: "let", Cmd: `let ` + p},
		{Name: "declare-i", Cmd: `declare -i x=` + p},
		{Name: "unset-subscript", Cmd: `unset ` + p},
		{Name: "read-subscript", Cmd: `read ` + p + ` <<< x`},
		{Name: "case-cmdsub", Cmd: `case x in $(touch {P})) ;; esac`},
		{Name: "after-ls", Cmd: `ls; test -v ` + p},
		{Name: "after-and", Cmd: `true && [[ 1 -eq ` + p + ` ]]`},
		{Name: "in-pipeline", Cmd: `echo 1 | [[ 1 -eq ` + p + ` ]]`},
		{Name: "ps4-xtrace", Cmd: `PS4='$(touch {P})'; set -x; true`},
		{Name: "prompt-op-in-test", Cmd: `x='$(touch {P})'; [ -n "${x@P}" ]`},
		// builtins that set up code to run later, or change what a name runs
		{Name: "trap-exit", Cmd: `trap 'touch {P}' EXIT; ls`},
		{Name: "trap-debug", Cmd: `trap 'touch {P}' DEBUG; echo hi`},
		{Name: "compgen-C", Cmd: `compgen -C 'touch {P}' x`},
		{Name: "hash-p", Cmd: `hash -p ./evil_hash.sh ls; ls`, Marker: "{W}/PROOF_hash"},
		{Name: "alias-expand", Cmd: "shopt -s expand_aliases; alias ls='touch {P}'\nls"},
		{Name: "path-prefix", Cmd: `PATH=bin1:$PATH ls`, Marker: "{W}/PROOF_path1"},
		{Name: "path-only-workspace", Cmd: `PATH=bin2 ls`, Marker: "{W}/PROOF_path2"},
		{Name: "export-path", Cmd: `export PATH=bin3:$PATH; ls`, Marker: "{W}/PROOF_path3"},
		{Name: "function-shadows-ls", Cmd: `ls() { touch {P}; }; ls`},
		{Name: "cmdsub-in-option", Cmd: `ls --color=$(touch {P})`},
		{Name: "for-arith-list", Cmd: `x=` + p + `; for i in $((x)); do ls; done`},
		{Name: "nice-arith-arg", Cmd: `x=` + p + `; nice -n $((x)) ls`},
	}
}

// readOnlyFixture makes the programs the hash/PATH forms would run instead of ls.
func readOnlyFixture(t *testing.T, a *attackEnv) {
	mustWrite(t, filepath.Join(a.repo, "evil_hash.sh"), "#!/bin/sh\ntouch "+filepath.Join(a.repo, "PROOF_hash")+"\n", 0o755)
	for i := 1; i <= 3; i++ {
		n := strconv.Itoa(i)
		mustWrite(t, filepath.Join(a.repo, "bin"+n, "ls"), "#!/bin/sh\ntouch "+filepath.Join(a.repo, "PROOF_path"+n)+"\n", 0o755)
	}
}

// TestAttackReadOnlyExec: default mode, no rules, headless: every form is refused.
func TestAttackReadOnlyExec(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	readOnlyFixture(t, a)
	r := a.runForms("ro", readOnlyExecForms())
	expectBlocked(t, r)
	a.control(t, "rc", []attackForm{{Name: "literal-dbl-bracket", Cmd: `[[ 1 -eq 1 ]]`}, {Name: "literal-test-f", Cmd: `test -f hello.txt`}, {Name: "literal-ls", Cmd: `ls`}})
}

// readOnlyRuleForms are the forms tried under an echo/ls allow rule: a rule may
// match only when every word is literal.
func readOnlyRuleForms() []attackForm {
	p := subscriptPayload
	return []attackForm{
		{Name: "echo-arith", Cmd: `x=` + p + `; echo $((x))`},
		{Name: "echo-arith-nested", Cmd: `x=` + p + `; echo $(( x * 2 ))`},
		{Name: "echo-old-arith", Cmd: `x=` + p + `; echo $[x]`},
		{Name: "echo-indirect", Cmd: `x=` + p + `; echo ${!x}`},
		{Name: "echo-prompt-op", Cmd: `x='$(touch {P})'; echo ${x@P}`},
		{Name: "echo-subscript", Cmd: `x=` + p + `; echo ${a[x]}`},
		{Name: "echo-substring", Cmd: `x=` + p + `; echo ${HOME:x:1}`},
		{Name: "echo-direct-subscript", Cmd: `echo ${a[$(touch {P})]}`},
		{Name: "echo-direct-arith", Cmd: `echo $(( a[$(touch {P})] ))`},
		{Name: "ls-subscript", Cmd: `x=` + p + `; ls ${a[x]}`},
		{Name: "ls-arith", Cmd: `x=` + p + `; ls $((x))`},
		{Name: "ls-prompt-op", Cmd: `x='$(touch {P})'; ls ${x@P}`},
		{Name: "echo-assign-prefix-arith", Cmd: `x=` + p + ` echo $((x))`},
		{Name: "echo-export-arith", Cmd: `export x=` + p + `; echo $((x))`},
		{Name: "echo-then-arith-test", Cmd: `echo hi && [[ 1 -eq ` + p + ` ]]`},
	}
}

// TestAttackReadOnlyUnderEchoRule: --allowed-tools 'Bash(echo:*)' 'Bash(ls:*)' in
// default mode; the non-literal forms must still ask (a headless denial).
func TestAttackReadOnlyUnderEchoRule(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	r := a.runForms("er", readOnlyRuleForms(), "--allowed-tools", "Bash(echo:*) Bash(ls:*)")
	expectBlocked(t, r)
	a.control(t, "ec", []attackForm{{Name: "echo-literal", Cmd: `echo hi "a b" 'c'`}, {Name: "ls-literal", Cmd: `ls -la`}},
		"--allowed-tools", "Bash(echo:*) Bash(ls:*)")
}
