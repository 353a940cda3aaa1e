package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With a Read deny rule, read-only commands that read files they do not name
// (recursive grep, rg, git's object store) ask, naming the rule; without one they
// stay free; commands that list names only stay free either way.
func TestReadDenyUnnamedReads(t *testing.T) {
	deny := rules(t, "deny:Read(./.env)")
	leaky := []string{
		`grep -r TOPSECRET .`, `grep -R x`, `grep -rn x .`, `grep --recursive x .`, `grep --dereference-recursive x`,
		`grep -d recurse x .`, `grep --directories=recurse x .`, `grep -nir x src`, `egrep -r x .`, `rgrep x`,
		`timeout 5 grep -r x .`, `ls && grep -r x .`,
		`rg x`, `rg --hidden TOPSECRET`, `rg -uuu TOPSECRET`, `rg x .`, `rg -n x src`,
		`git show HEAD:.env`, `git show HEAD`, `git log -p -1`, `git log`, `git grep TOPSECRET`,
		`git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD`, `git -C . show HEAD:.env`, `git --no-pager log -p`,
		`git cat-file -p HEAD:.env`,
	}
	for _, cmd := range leaky {
		if d := Evaluate(ModeDefault, RuleSet{}, bash(cmd)); d.Behavior != Allow {
			// not read-only already (grep -R follows links, git grep runs no
			// index-free search, ...): it asks with or without the rule
			if d := Evaluate(ModeDefault, deny, bash(cmd)); d.Behavior == Allow {
				t.Errorf("%q with Read(./.env) denied: allowed (%s)", cmd, d.Reason)
			}
			continue
		}
		for _, m := range []struct {
			mode Mode
			want Behavior
		}{{ModeDefault, Ask}, {ModeAcceptEdits, Ask}, {ModePlan, Ask}, {ModeDontAsk, Deny}} {
			d := Evaluate(m.mode, deny, bash(cmd))
			if d.Behavior != m.want {
				t.Errorf("%s %q with Read(./.env) denied: %s by %q (%s), want %s", m.mode, cmd, d.Behavior, d.By, d.Reason, m.want)
				continue
			}
			if !strings.Contains(d.Reason, "Read(./.env)") || d.Rule != "Read(./.env)" {
				t.Errorf("%s %q: reason %q (rule %q) does not name the deny rule", m.mode, cmd, d.Reason, d.Rule)
			}
		}
	}
	if d := Evaluate(ModeDefault, deny, bash(`grep -r x .`)); !strings.Contains(d.Reason, "`grep -r x .` may read ./.env, which the rule Read(./.env) denies") {
		t.Errorf("reason = %q", d.Reason)
	}
	free := []string{
		`grep x hello.txt`, `grep -e r hello.txt`, `grep -c x hello.txt`, `find . -name '*.go'`, `ls -R`, `ls -la`,
		`git status`, `wc -l hello.txt`,
	}
	for _, cmd := range free {
		if d := Evaluate(ModeDefault, deny, bash(cmd)); d.Behavior != Allow {
			t.Errorf("%q with Read(./.env) denied: %s by %q (%s), want allow", cmd, d.Behavior, d.By, d.Reason)
		}
	}
	// Controls: no Read deny rule, the same commands are free.
	for _, cmd := range []string{`grep -r x .`, `rg x`, `git show HEAD`, `git log -p -1`, `rg --hidden x`} {
		if d := Evaluate(ModeDefault, RuleSet{}, bash(cmd)); d.Behavior != Allow {
			t.Errorf("%q without a Read deny rule: %s by %q (%s), want allow", cmd, d.Behavior, d.By, d.Reason)
		}
	}
	// Other deny rules (not Read) change nothing; bypassPermissions is left alone;
	// a Bash allow rule for the command allows it.
	if d := Evaluate(ModeDefault, rules(t, "deny:Edit(./x)", "deny:Bash(rm:*)"), bash(`grep -r x .`)); d.Behavior != Allow {
		t.Errorf("grep -r with only Edit/Bash deny rules: %s (%s)", d.Behavior, d.Reason)
	}
	if d := Evaluate(ModeBypass, deny, bash(`grep -r x .`)); d.Behavior != Allow {
		t.Errorf("bypass grep -r: %s (%s)", d.Behavior, d.Reason)
	}
	if d := Evaluate(ModeDefault, rules(t, "deny:Read(./.env)", "allow:Bash(git log:*)"), bash(`git log -p -1`)); d.Behavior != Allow {
		t.Errorf("git log -p with Bash(git log:*) allowed: %s (%s)", d.Behavior, d.Reason)
	}
}

// rg given only regular files as paths (no options) reads just those; given a
// directory or an option, it may recurse.
func TestReadDenyRgFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	deny := rules(t, "deny:Read(./.env)")
	in := func(cmd string) Input {
		return Input{Tool: "Bash", Kind: KindExecute, Command: cmd, Workspace: dir, Cwd: dir, Home: "/home/u"}
	}
	for cmd, want := range map[string]Behavior{`rg x a.txt`: Allow, `rg x sub`: Ask, `rg x`: Ask, `rg x missing.txt`: Ask, `rg -e x a.txt`: Ask} {
		if d := Evaluate(ModeDefault, deny, in(cmd)); d.Behavior != want {
			t.Errorf("%q: %s (%s), want %s", cmd, d.Behavior, d.Reason, want)
		}
	}
}

// A deny rule on a file also denies a read through a symlink to it.
func TestReadDenySymlinkArg(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOPSECRET\n"), 0o644)
	os.Symlink(".env", filepath.Join(dir, "env.txt"))
	os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("x\n"), 0o644)
	deny := rules(t, "deny:Read(./.env)")
	in := func(cmd string) Input {
		return Input{Tool: "Bash", Kind: KindExecute, Command: cmd, Workspace: dir, Cwd: dir, Home: "/home/u"}
	}
	for _, cmd := range []string{`cat env.txt`, `head -n1 env.txt`, `cat < env.txt`, `cat ./env.txt`} {
		if d := Evaluate(ModeDefault, deny, in(cmd)); d.Behavior != Deny || d.Rule != "Read(./.env)" {
			t.Errorf("%q: %s by %q (%s), want deny by Read(./.env)", cmd, d.Behavior, d.By, d.Reason)
		}
	}
	if d := Evaluate(ModeDefault, deny, in(`cat ok.txt`)); d.Behavior != Allow {
		t.Errorf("cat ok.txt: %s (%s)", d.Behavior, d.Reason)
	}
}
