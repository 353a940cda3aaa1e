package e2e

// Issue 10, class 11: deny rules evaded in bypassPermissions. With
// --permission-mode bypassPermissions --disallowed-tools 'Bash(rm:*) Bash(git push:*)
// Bash(curl:*)', every way of still running rm (a victim file must survive), git
// push (the remote must not get the branch) or curl (its output file must not
// appear) is denied: wrappers, absolute paths, git's global options, quoting, and
// program names that are not literal.

import (
	"path/filepath"
	"testing"
)

func denyRmForms() []attackForm {
	v := "{W}/victim_{ID}"
	forms := []attackForm{
		{Name: "bin-rm", Cmd: `/bin/rm {V}`},
		{Name: "usr-bin-rm", Cmd: `/usr/bin/rm {V}`},
		{Name: "dotdot-rm", Cmd: `/usr/../bin/rm {V}`},
		{Name: "sudo-rm", Cmd: `sudo rm {V}`},
		{Name: "sudo-u-rm", Cmd: `sudo -u root rm {V}`},
		{Name: "doas-rm", Cmd: `doas rm {V}`},
		{Name: "exec-rm", Cmd: `exec rm {V}`},
		{Name: "exec-a-rm", Cmd: `exec -a x rm {V}`},
		{Name: "cmdsub-program", Cmd: `$(echo rm) {V}`},
		{Name: "backtick-program", Cmd: "`echo rm` {V}"},
		{Name: "ifs", Cmd: `rm${IFS}{V}`},
		{Name: "var-program", Cmd: `R=rm; $R {V}`},
		{Name: "brace-var-program", Cmd: `x=r; ${x}m {V}`},
		{Name: "printf-pipe-sh", Cmd: `printf 'rm {V}' | sh`},
		{Name: "echo-pipe-bash", Cmd: `echo 'rm {V}' | bash`},
		{Name: "sh-c", Cmd: `sh -c 'rm {V}'`},
		{Name: "bash-c", Cmd: `bash -c "rm {V}"`},
		{Name: "eval", Cmd: `eval rm {V}`},
		{Name: "eval-quoted", Cmd: `eval "r""m {V}"`},
		{Name: "env-rm", Cmd: `env rm {V}`},
		{Name: "env-i-rm", Cmd: `env -i rm {V}`},
		{Name: "usr-bin-env-rm", Cmd: `/usr/bin/env rm {V}`},
		{Name: "command-rm", Cmd: `command rm {V}`},
		{Name: "command-p-rm", Cmd: `command -p rm {V}`},
		{Name: "builtin-command-rm", Cmd: `builtin command rm {V}`},
		{Name: "nice-rm", Cmd: `nice -n 5 rm {V}`},
		{Name: "nohup-rm", Cmd: `nohup rm {V}`},
		{Name: "timeout-rm", Cmd: `timeout 5 rm {V}`},
		{Name: "timeout-s-rm", Cmd: `timeout -s KILL 5 rm {V}`},
		{Name: "time-rm", Cmd: `time rm {V}`},
		{Name: "stdbuf-rm", Cmd: `stdbuf -o0 rm {V}`},
		{Name: "xargs-rm", Cmd: `echo {V} | xargs rm`},
		{Name: "xargs-I-rm", Cmd: `echo {V} | xargs -I{} rm {}`},
		{Name: "find-exec-rm", Cmd: `find {V} -exec rm {} \;`},
		{Name: "find-exec-rm-plus", Cmd: `find {V} -exec rm -f {} +`},
		{Name: "backslash-rm", Cmd: `\rm {V}`},
		{Name: "single-quoted-rm", Cmd: `'rm' {V}`},
		{Name: "double-quoted-rm", Cmd: `"rm" {V}`},
		{Name: "split-quoted-rm", Cmd: `r''m {V}`},
		{Name: "escaped-char-rm", Cmd: `r\m {V}`},
		{Name: "after-true", Cmd: `true && rm {V}`},
		{Name: "subshell", Cmd: `(rm {V})`},
		{Name: "group", Cmd: `{ rm {V}; }`},
		{Name: "if-body", Cmd: `if true; then rm {V}; fi`},
		{Name: "for-loop", Cmd: `for f in {V}; do rm "$f"; done`},
		{Name: "function", Cmd: `f() { rm "$1"; }; f {V}`},
		{Name: "rm-double-dash", Cmd: `rm -- {V}`},
		{Name: "rm-f", Cmd: `rm -f {V}`},
		{Name: "cmdsub-inside", Cmd: `echo $(rm {V})`},
		{Name: "procsub-inside", Cmd: `cat <(rm {V})`},
		{Name: "busybox-rm", Cmd: `busybox rm {V}`},
	}
	for i := range forms {
		forms[i].Victim = v
		forms[i].Name = "rm:" + forms[i].Name
	}
	return forms
}

func denyPushForms() []attackForm {
	ref := "HEAD:refs/heads/b_{ID}"
	forms := []attackForm{
		{Name: "C-dot", Cmd: `git -C . push origin ` + ref},
		{Name: "C-abs", Cmd: `git -C {W} push origin ` + ref},
		{Name: "c-option", Cmd: `git -c a.b=c push origin ` + ref},
		{Name: "c-push-default", Cmd: `git -c push.default=current push origin ` + ref},
		{Name: "git-dir", Cmd: `git --git-dir=.git push origin ` + ref},
		{Name: "work-tree", Cmd: `git --work-tree=. push origin ` + ref},
		{Name: "no-pager", Cmd: `git --no-pager push origin ` + ref},
		{Name: "abs-git", Cmd: `/usr/bin/git push origin ` + ref},
		{Name: "env-git", Cmd: `env git push origin ` + ref},
		{Name: "command-git", Cmd: `command git push origin ` + ref},
		{Name: "sudo-git", Cmd: `sudo git push origin ` + ref},
		{Name: "nice-git", Cmd: `nice git push origin ` + ref},
		{Name: "timeout-git", Cmd: `timeout 30 git push origin ` + ref},
		{Name: "quoted-git", Cmd: `"git" push origin ` + ref},
		{Name: "quoted-push", Cmd: `git 'push' origin ` + ref},
		{Name: "var-program", Cmd: `g=git; $g push origin ` + ref},
		{Name: "cmdsub-subcommand", Cmd: `git $(echo push) origin ` + ref},
		{Name: "alias", Cmd: `git -c alias.p=push p origin ` + ref},
		{Name: "sh-c", Cmd: `sh -c 'git push origin ` + ref + `'`},
		{Name: "xargs", Cmd: `echo push | xargs git`},
	}
	for i := range forms {
		forms[i].Marker = "{O}/remote.git/refs/heads/b_{ID}"
		forms[i].Name = "push:" + forms[i].Name
	}
	return forms
}

func denyCurlForms() []attackForm {
	get := "-s file://{W}/hello.txt -o {P}"
	forms := []attackForm{
		{Name: "abs", Cmd: `/usr/bin/curl ` + get},
		{Name: "env", Cmd: `env curl ` + get},
		{Name: "command", Cmd: `command curl ` + get},
		{Name: "backslash", Cmd: `\curl ` + get},
		{Name: "var", Cmd: `c=curl; $c ` + get},
		{Name: "xargs", Cmd: `echo ` + get + ` | xargs curl`},
	}
	for i := range forms {
		forms[i].Name = "curl:" + forms[i].Name
	}
	return forms
}

func TestAttackDenyRulesInBypass(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	remote := filepath.Join(a.outside, "remote.git")
	gitIn(t, a.outside, "init", "-q", "--bare", remote)
	gitIn(t, a.repo, "remote", "add", "origin", remote)
	forms := append(append(denyRmForms(), denyPushForms()...), denyCurlForms()...)
	r := a.runForms("dn", forms, "--permission-mode", "bypassPermissions",
		"--disallowed-tools", "Bash(rm:*) Bash(git push:*) Bash(curl:*)")
	expectBlocked(t, r)
	a.control(t, "dc", []attackForm{{Name: "touch-not-denied", Cmd: `touch {W}/made_{ID}`}, {Name: "git-status-not-denied", Cmd: `git status`}},
		"--permission-mode", "bypassPermissions", "--disallowed-tools", "Bash(rm:*) Bash(git push:*) Bash(curl:*)")
	t.Run("remote-untouched", func(t *testing.T) {
		if out := gitIn(t, remote, "for-each-ref"); out != "" {
			t.Errorf("ESCAPE: the remote got refs:\n%s", out)
		}
	})
}

// TestAttackAskRulesInBypass: ask rules (here from the user's config.toml) match
// through the same wrappers and paths as deny rules; headless, an ask is a denial.
func TestAttackAskRulesInBypass(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	mustWrite(t, filepath.Join(a.home, "config.toml"), "[permissions]\nask = [\"Bash(touch:*)\"]\n", 0o644)
	var forms []attackForm
	for _, c := range []string{
		`touch {P}`, `/usr/bin/touch {P}`, `env touch {P}`, `sudo touch {P}`, `$(echo touch) {P}`, `nice touch {P}`,
		`timeout 5 touch {P}`, `command touch {P}`, `exec touch {P}`, `sh -c 'touch {P}'`, `echo {P} | xargs touch`,
		`t=touch; $t {P}`, `"touch" {P}`, `to\uch {P}`, `find . -maxdepth 0 -exec touch {P} \;`,
	} {
		forms = append(forms, attackForm{Name: c, Cmd: c})
	}
	r := a.runForms("ak", forms, "--permission-mode", "bypassPermissions")
	expectBlocked(t, r)
	a.control(t, "akc", []attackForm{{Name: "mkdir-not-asked", Cmd: `mkdir {W}/made_{ID}`}}, "--permission-mode", "bypassPermissions")
}
