package attack

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/permission"
)

// templates are attacks in many forms. {W} is replaced by the workspace's
// absolute path; ./evil.sh is an executable script there that touches
// PROOF in its working directory.
var templates = []string{
	// class 1: bash evaluates array subscripts in arithmetic contexts
	`[[ 1 -eq 'a[$(touch PROOF)]' ]]`,
	`[[ 'a[$(touch PROOF)]' -lt 1 ]]`,
	`[[ 1 -ne "a[$(touch PROOF)]" ]]`,
	`test -v 'a[$(touch PROOF)]'`,
	`[ -v 'a[$(touch PROOF)]' ]`,
	`[[ -v 'a[$(touch PROOF)]' ]]`,
	`x='a[$(touch PROOF)]'; (( x ))`,
	`x='a[$(touch PROOF)]'; (( x + 1 ))`,
	`x='a[$(touch PROOF)]'; [[ x -eq 1 ]]`,
	`x='a[$(touch PROOF)]'; [[ 1 -eq x ]]`,
	`x='a[$(touch PROOF)]'; [[ -v a[x] ]]`,
	`x='a[$(touch PROOF)]'; let x`,
	`x='a[$(touch PROOF)]'; let 'y = x'`,
	`x='a[$(touch PROOF)]'; echo $((x))`,
	`x='a[$(touch PROOF)]'; echo $[x]`,
	`x='a[$(touch PROOF)]'; echo ${a[x]}`,
	`x='a[$(touch PROOF)]'; ls ${a[x]}`,
	`x='$(touch PROOF)'; echo ${x@P}`,
	`x='a[$(touch PROOF)]'; echo ${!x}`,
	`x='a[$(touch PROOF)]'; echo ${x:x}`,
	`x='a[$(touch PROOF)]'; for ((i=x; i<1; i++)); do :; done`,
	`x='a[$(touch PROOF)]'; while (( x )); do break; done`,
	"x='a[$(touch PROOF)]'; cat <<EOF\n$((x))\nEOF",
	`x='a[$(touch PROOF)]'; cat <<< $((x))`,
	`x='a[$(touch PROOF)]'; y=$((x)) ls`,
	`x='a[$(touch PROOF)]'; y=$((x))`,
	`x='a[$(touch PROOF)]'; cat < /dev/null$((x))`,
	`printf -v 'a[$(touch PROOF)]' x`,
	`read 'a[$(touch PROOF)]' <<< x`,
	`a=(1); unset 'a[$(touch PROOF)]'`,
	`declare 'a[$(touch PROOF)]=1'`,
	`x='a[$(touch PROOF)]'; declare -i y; y=x`,
	`timeout 1 test -v 'a[$(touch PROOF)]'`,
	`command test -v 'a[$(touch PROOF)]'`,
	`builtin test -v 'a[$(touch PROOF)]'`,
	`true && [[ 2 -gt 'a[$(touch PROOF)]' ]]`,
	"x='a[$(touch PROOF)]'; nice -n $((x)) ls",
	"x='a[$(touch PROOF)]'; timeout -k $((x)) 5 ls",
	"x='a[$(touch PROOF)]'; stdbuf -o $((x)) ls",
	"x='a[$(touch PROOF)]'; env -u $((x)) ls",
	"x='a[$(touch PROOF)]'; command ls ${a[x]}",
	"x='a[$(touch PROOF)]'; for i in $((x)); do ls; done",
	"x='a[$(touch PROOF)]'; case $((x)) in 1) ls;; esac",
	"x='a[$(touch PROOF)]'; case 1 in $((x))) ls;; esac",
	`[[ -v "a[\$(touch PROOF)]" ]]`,
	`[[ -v a\[\$\(touch\ PROOF\)\] ]]`,
	`[[ 1 -eq a\[\$\(touch\ PROOF\)\] ]]`,
	`test ! -v 'a[$(touch PROOF)]'`,
	`test '(' -v 'a[$(touch PROOF)]' ')'`,
	`[ -v 'a[$(touch PROOF)]' -o 1 ]`,
	`(( 'a[$(touch PROOF)]' ))`,
	`let 'a[$(touch PROOF)]'`,
	`: ${x:=$(touch PROOF)}`,
	`: $((y=1)) $(touch PROOF)`,
	`true "${x[$(touch PROOF)]}"`,
	`echo $(( 'a[$(touch PROOF)]' ))`,
	"cat <<EOF >/dev/null\n$(touch PROOF)\nEOF",
	`{ ls; } 2>/dev/fd/../../..{W}/PROOF`,
	`ls 2>>/dev/fd/2/../../../..{W}/PROOF`,
	`cat 0<>PROOF`,
	`ls 3>PROOF`,
	`ls >&PROOF`,
	`exec > PROOF`,
	`git diff --output=PROOF`,
	`git -C . diff --output PROOF`,
	`git --no-pager log -1 --output=PROOF`,
	// class 2: redirect targets
	`echo x > /dev/fd/../../..{W}/PROOF`,
	`echo x >/dev/./../{W}/PROOF`,
	`echo x >> /dev/fd/3/../../../..{W}/PROOF`,
	`ls 2> /dev/fd/../../..{W}/PROOF`,
	`ls &> /dev/fd/../../../{W}/PROOF`,
	`echo x >| /dev/stderr/../../..{W}/PROOF`,
	`: > /dev/fd/../../..{W}/PROOF`,
	`> /dev/fd/../../..{W}/PROOF`,
	`echo x > PROOF`,
	`ls > {W}/PROOF`,
	"cat <<EOF > PROOF\nx\nEOF",
	`x=PROOF; : > $x`,
	// class 3: flags that run or write
	`find . -maxdepth 0 -exec ./evil.sh \;`,
	`find . -maxdepth 0 -execdir ./evil.sh \;`,
	`find . -maxdepth 0 -exec sh evil.sh \;`,
	`find . -maxdepth 0 -fprint PROOF`,
	`find . -maxdepth 0 -fprint0 PROOF`,
	`find . -maxdepth 0 -fprintf PROOF %p`,
	`find . -maxdepth 0 -fls PROOF`,
	`find . -maxdepth 0 -ok ./evil.sh \; < /dev/null`,
	`git log --output=PROOF`,
	`git log --outp=PROOF`,
	`git diff HEAD --output=PROOF`,
	`git show --output PROOF`,
	`git -c core.pager=./evil.sh -p log`,
	`git -c alias.x='!touch PROOF' status`,
	`git --config-env=core.pager=HOME log`,
	`git -c diff.external=./evil.sh diff HEAD~0 --ext-diff`,
	`git --exec-path=. status`,
	`git --git-dir=.git -c core.fsmonitor=./evil.sh status`,
	`rg --pre ./evil.sh x .`,
	`rg --pre=./evil.sh x .`,
	`sed -n 'w PROOF' evil.sh`,
	`sed -i 1d evil.sh && touch PROOF`,
	`sort -o PROOF evil.sh`,
	`awk 'BEGIN{system("touch PROOF")}'`,
	`tar -cf PROOF evil.sh`,
	// substitutions and compounds
	`echo $(touch PROOF)`,
	"echo `touch PROOF`",
	`ls "$(touch PROOF)"`,
	`cat <(touch PROOF)`,
	`echo > >(touch PROOF)`,
	`x=$(touch PROOF)`,
	`ls ${x:-$(touch PROOF)}`,
	`x=1; echo ${x:$(touch PROOF)}`,
	`[[ -n $(touch PROOF) ]]`,
	`(( $(touch PROOF) ))`,
	"cat <<EOF\n$(touch PROOF)\nEOF",
	`cat <<< "$(touch PROOF)"`,
	`f() { touch PROOF; }; f`,
	`ls; touch PROOF`,
	`ls && touch PROOF`,
	`false || touch PROOF`,
	`ls | touch PROOF`,
	`{ ls; touch PROOF; }`,
	`(touch PROOF)`,
	`if true; then touch PROOF; fi`,
	`trap 'touch PROOF' EXIT`,
	`eval 'touch PROOF'`,
	`builtin eval 'touch PROOF'`,
	`command eval 'touch PROOF'`,
	`bash -c 'touch PROOF'`,
	`printf 'touch PROOF' | sh`,
	`echo touch PROOF | bash`,
	`sh <<< 'touch PROOF'`,
	"bash <<'EOF'\ntouch PROOF\nEOF",
	`echo PROOF | xargs touch`,
	`echo x | tee PROOF`,
	`t${IFS}PROOF`,
	`$(echo touch) PROOF`,
	`"tou""ch" PROOF`,
	`/usr/bin/touch PROOF`,
	`env touch PROOF`,
	`nice touch PROOF`,
	`timeout 1 touch PROOF`,
	`exec touch PROOF`,
	`./evil.sh`,
	`sh evil.sh`,
	`. ./evil.sh`,
	`source evil.sh`,
	`BASH_ENV=./evil.sh bash -c :`,
	`PATH=.:$PATH evil.sh`,
	`exec 3>PROOF`,
	`ls $(./evil.sh)`,
}

// shapes wrap an attack in compound forms; %s is the attack.
var shapes = []string{
	"%s",
	"ls && %s",
	"true; %s",
	"{ %s; }",
	"( %s )",
	"if true; then %s; fi",
	"git status >/dev/null; %s",
	"echo hi | { %s; }",
	"for i in 1; do %s; done",
	"test -f go.mod && %s",
	"%s 2>/dev/null",
	"while true; do %s; break; done",
	"case a in a) %s ;; esac",
	"! %s",
	"%s || true",
}

// setup makes a workspace (a git repository with one commit and the
// script evil.sh) and a home directory.
func setup(t testing.TB) (work, home string) {
	t.Helper()
	work, home = t.TempDir(), t.TempDir()
	script := "#!/bin/sh\ntouch PROOF\n"
	if err := os.WriteFile(filepath.Join(work, "evil.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = work, minimalEnv(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return work, home
}

func minimalEnv(home string) []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "LANG=C", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0"}
}

// allowed reports whether Evaluate allows src in default mode with no rules.
func allowed(src, work, home string) (bool, permission.Decision) {
	d := permission.Evaluate(permission.ModeDefault, permission.RuleSet{}, permission.Input{
		Tool: "Bash", Kind: permission.KindExecute, Command: src, Workspace: work, Cwd: work, Home: home})
	return d.Behavior == permission.Allow, d
}

// run executes src with bash in work and reports where PROOF appeared.
func run(t testing.TB, src, work, home string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", src)
	cmd.Dir, cmd.Env = work, minimalEnv(home)
	cmd.Stdin = bytes.NewReader(nil)
	cmd.Stdout, cmd.Stderr = &limited{n: 1 << 16}, &limited{n: 1 << 16}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	_ = cmd.Run()
	var found []string
	for _, dir := range []string{work, home} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == "PROOF" {
				found = append(found, p)
				_ = os.Remove(p)
			}
			return nil
		})
	}
	return found
}

// limited is a writer that keeps nothing and accepts at most n bytes.
type limited struct{ n int }

func (l *limited) Write(p []byte) (int, error) {
	if l.n -= len(p); l.n < 0 {
		return 0, os.ErrClosed
	}
	return len(p), nil
}

// expand fills a template's placeholders.
func expand(tmpl, work string) string { return strings.ReplaceAll(tmpl, "{W}", work) }

// generated is the deterministic list of attacks: every template in every
// shape (a quoted heredoc keeps its own line structure and is used alone).
func generated() []string {
	var out []string
	for _, tm := range templates {
		for i, sh := range shapes {
			if strings.Contains(tm, "\n") && i > 0 {
				continue
			}
			out = append(out, strings.Replace(sh, "%s", tm, 1))
		}
	}
	return out
}

// TestHarnessSeesPayload checks that the harness can fail: a command the
// engine does not allow, run anyway, is seen creating PROOF, in the
// workspace and under HOME.
func TestHarnessSeesPayload(t *testing.T) {
	work, home := setup(t)
	for _, src := range []string{"touch PROOF", "./evil.sh", "cd ~ && touch PROOF", "mkdir -p a/b && touch a/b/PROOF"} {
		if found := run(t, src, work, home); len(found) != 1 {
			t.Errorf("%q: found %v, want one PROOF", src, found)
		}
		if ok, _ := allowed(src, work, home); ok {
			t.Errorf("%q is allowed without approval", src)
		}
	}
	// and a read-only command is allowed and runs
	if ok, d := allowed("git status && ls -la && cat go.mod | wc -l", work, home); !ok {
		t.Errorf("read-only compound not allowed: %s", d.Reason)
	}
}

// TestSeedsNeverRunPayload runs each template alone and reports which the
// engine allows; an allowed one that creates PROOF fails.
func TestSeedsNeverRunPayload(t *testing.T) {
	work, home := setup(t)
	allowedN := 0
	for _, tm := range templates {
		src := expand(tm, work)
		ok, d := allowed(src, work, home)
		if !ok {
			continue
		}
		allowedN++
		if found := run(t, src, work, home); len(found) > 0 {
			t.Errorf("allowed (%s: %s) and created %v:\n%s", d.By, d.Reason, found, src)
		}
	}
	t.Logf("%d templates, %d allowed without approval", len(templates), allowedN)
}

// TestGeneratedCompoundsNeverRunPayload runs the generated compounds.
func TestGeneratedCompoundsNeverRunPayload(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash a few hundred times")
	}
	work, home := setup(t)
	all := generated()
	if len(all) < 300 {
		t.Fatalf("only %d generated attacks", len(all))
	}
	allowedN, escapes := 0, 0
	deadline := time.Now().Add(60 * time.Second)
	for _, g := range all {
		src := expand(g, work)
		ok, d := allowed(src, work, home)
		if !ok {
			continue
		}
		allowedN++
		if time.Now().After(deadline) {
			t.Fatalf("out of time after %d allowed runs", allowedN)
		}
		if found := run(t, src, work, home); len(found) > 0 {
			escapes++
			t.Errorf("allowed (%s) and created PROOF:\n%s", d.By, src)
		}
	}
	t.Logf("%d generated attacks, %d allowed without approval, %d created PROOF", len(all), allowedN, escapes)
}

// FuzzAllowNeverRunsPayload: whatever Evaluate allows never creates PROOF.
func FuzzAllowNeverRunsPayload(f *testing.F) {
	for _, g := range generated() {
		f.Add(g)
	}
	work, home := setup(f)
	f.Fuzz(func(t *testing.T, src string) {
		src = expand(src, work)
		if ok, _ := allowed(src, work, home); !ok {
			return
		}
		if found := run(t, src, work, home); len(found) > 0 {
			t.Fatalf("allowed and created %v:\n%s", found, src)
		}
	})
}
