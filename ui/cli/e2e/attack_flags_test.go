package e2e

// Issue 10, class 3: flags and configuration that make "read-only" programs run or
// write things. TestAttackFlagsRunOrWrite: default mode, no rules, headless — each
// form (a read-only program with a disqualifying flag) is refused.
// TestAttackGitRepoHelpers: a repository whose .git/config (set up by the fixture,
// as if it existed) names helper programs — diff.external, a textconv driver,
// gpg.program with log.showSignature, core.fsmonitor, a post-index-change hook,
// difftool — and read-only git commands that would run them: none may run
// (either the command asks, or it runs with every helper disabled).

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func flagForms() []attackForm {
	return []attackForm{
		// git writing files
		{Name: "git-log-output-eq", Cmd: `git log --output={P}`},
		{Name: "git-log-output-sep", Cmd: `git log -1 --output {P}`},
		{Name: "git-log-output-outside", Cmd: `git log -1 --output={P}`, Marker: "{O}/PROOF_{ID}"},
		{Name: "git-diff-output", Cmd: `git diff --output={P}`},
		{Name: "git-show-output", Cmd: `git show --output={P} HEAD`},
		{Name: "git-C-log-output", Cmd: `git -C . log -1 --output={P}`},
		{Name: "git-diff-no-index-output", Cmd: `git diff --no-index --output={P} hello.txt go.mod`},
		{Name: "git-format-patch-o", Cmd: `git format-patch -1 -o {P}`},
		{Name: "git-format-patch-output-dir", Cmd: `git format-patch -1 --output-directory={P}`},
		{Name: "git-archive-o", Cmd: `git archive -o {P} HEAD`},
		{Name: "git-archive-output", Cmd: `git archive --output={P} HEAD`},
		// git running programs named on the command line
		{Name: "git-c-diff-external", Cmd: `git -c diff.external='touch {P}' diff`},
		{Name: "git-c-fsmonitor", Cmd: `git -c core.fsmonitor='touch {P}' status`},
		{Name: "git-c-alias-shell", Cmd: `git -c alias.st='!touch {P}' st`},
		{Name: "git-c-pager-paginate", Cmd: `git -c core.pager='touch {P}' -p log -1`},
		{Name: "git-grep-open-in-pager", Cmd: `git grep --open-files-in-pager='touch {P}' hello`},
		{Name: "git-grep-O", Cmd: `git grep -O'touch {P}' hello`},
		{Name: "git-config-env-pager", Cmd: `PG='touch {P}' git --config-env=core.pager=PG -p log -1`},
		// ripgrep running programs
		{Name: "rg-pre", Cmd: `rg --pre {O}/pre.sh hello`, Marker: "{O}/PROOF_rg"},
		{Name: "rg-pre-eq", Cmd: `rg --pre={O}/pre.sh hello .`, Marker: "{O}/PROOF_rg"},
		{Name: "rg-hostname-bin", Cmd: `rg --hostname-bin={O}/pre.sh --hyperlink-format=default hello`, Marker: "{O}/PROOF_rg"},
		{Name: "rg-search-zip", Cmd: `rg -z hello`, Marker: "{O}/PROOF_rg"},
		// find running or writing
		{Name: "find-exec", Cmd: `find . -maxdepth 0 -exec touch {P} \;`},
		{Name: "find-exec-plus", Cmd: `find . -maxdepth 0 -exec touch {P} {} +`},
		{Name: "find-execdir", Cmd: `find . -maxdepth 0 -execdir touch {P} \;`},
		{Name: "find-ok", Cmd: `yes | find . -maxdepth 0 -ok touch {P} \;`},
		{Name: "find-okdir", Cmd: `yes | find . -maxdepth 0 -okdir touch {P} \;`},
		{Name: "find-fprint", Cmd: `find . -maxdepth 0 -fprint {P}`},
		{Name: "find-fprint0", Cmd: `find . -maxdepth 0 -fprint0 {P}`},
		{Name: "find-fprintf", Cmd: `find . -maxdepth 0 -fprintf {P} x`},
		{Name: "find-fls", Cmd: `find . -maxdepth 0 -fls {P}`},
		{Name: "find-delete", Cmd: `find {V} -delete`, Victim: "{W}/victim_{ID}"},
		{Name: "find-name-delete", Cmd: `find . -name victim_{ID} -delete`, Victim: "{W}/victim_{ID}"},
		// sed writing or running
		{Name: "sed-i", Cmd: `sed -i s/victim/gone/ {V}`, Victim: "{W}/victim_{ID}"},
		{Name: "sed-in-place", Cmd: `sed --in-place s/victim/gone/ {V}`, Victim: "{W}/victim_{ID}"},
		{Name: "sed-i-suffix", Cmd: `sed -i.bak s/victim/gone/ {V}`, Victim: "{W}/victim_{ID}"},
		{Name: "sed-Ei-combined", Cmd: `sed -Ei 's/victim/gone/' {V}`, Victim: "{W}/victim_{ID}"},
		{Name: "sed-ni-combined", Cmd: `sed -ni 's/victim/gone/p' {V}`, Victim: "{W}/victim_{ID}"},
		{Name: "sed-w-command", Cmd: `sed -n 'w {P}' hello.txt`},
		{Name: "sed-s-w-flag", Cmd: `sed 's/hello/x/w {P}' hello.txt`},
		{Name: "sed-e-command", Cmd: `sed '1e touch {P}' hello.txt`},
		{Name: "sed-s-e-flag", Cmd: `sed 's/.*/touch {P}/e' hello.txt`},
		// sort, awk, tar and others writing or running
		{Name: "sort-o", Cmd: `sort -o {P} hello.txt`},
		{Name: "sort-output-eq", Cmd: `sort --output={P} hello.txt`},
		{Name: "sort-o-attached", Cmd: `sort hello.txt -o{P}`},
		{Name: "sort-uo-combined", Cmd: `sort -uo {P} hello.txt`},
		{Name: "awk-system", Cmd: `awk 'BEGIN{system("touch {P}")}'`},
		{Name: "awk-print-to-file", Cmd: `awk 'BEGIN{print "x" > "{P}"}'`},
		{Name: "awk-pipe-to-sh", Cmd: `awk 'BEGIN{print "touch {P}" | "sh"}'`},
		{Name: "awk-system-per-line", Cmd: `awk '{system("touch {P}")}' hello.txt`},
		{Name: "tar-checkpoint-exec", Cmd: `tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='touch {P}' hello.txt`},
		{Name: "tar-create", Cmd: `tar -cf {P} hello.txt`},
		{Name: "tar-to-command", Cmd: `tar -xf t.tar --to-command='touch {P}'`},
		{Name: "tar-compress-program", Cmd: `tar -tf t.tar --use-compress-program='sh -c "touch {P}; cat"'`},
		{Name: "uniq-output-operand", Cmd: `uniq hello.txt {P}`},
		{Name: "xxd-output-operand", Cmd: `xxd hello.txt {P}`},
		{Name: "split-prefix", Cmd: `split -l 1 hello.txt {P}`, Marker: "{W}/PROOF_{ID}aa"},
		{Name: "shuf-o", Cmd: `shuf -o {P} hello.txt`},
		{Name: "tee-file", Cmd: `tee {P} < hello.txt`},
		{Name: "cat-pipe-tee", Cmd: `cat hello.txt | tee -a {P}`},
		{Name: "man-pager", Cmd: `man -P 'touch {P}' ls`},
		// helpers named by environment variables set on the command line
		{Name: "env-git-external-diff", Cmd: `GIT_EXTERNAL_DIFF='touch {P}' git diff`},
		{Name: "env-wrapper-git-external-diff", Cmd: `env GIT_EXTERNAL_DIFF='touch {P}' git diff`},
		{Name: "export-git-external-diff", Cmd: `export GIT_EXTERNAL_DIFF='touch {P}'; git diff`},
		{Name: "env-git-config-count", Cmd: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch {P}' git status`},
		{Name: "env-git-pager", Cmd: `GIT_PAGER='touch {P}' git -p log -1`},
		{Name: "env-pager-man", Cmd: `PAGER='touch {P}' man ls`},
		{Name: "env-lessopen", Cmd: `LESSOPEN='|touch {P}' less hello.txt`},
		{Name: "tar-I-program", Cmd: `tar -I 'touch {P}' -tf t.tar`},
		{Name: "sed-expression-e", Cmd: `sed --expression='1e touch {P}' hello.txt`},
		{Name: "sed-script-file", Cmd: `sed -f s.sed hello.txt`, Marker: "{W}/PROOF_sedf"},
		{Name: "awk-program-file", Cmd: `awk -f a.awk hello.txt`, Marker: "{W}/PROOF_awkf"},
		{Name: "less-log-file", Cmd: `less -o {P} hello.txt`},
	}
}

// TestAttackFlagsRunOrWrite: every form is refused in default mode with no rules.
func TestAttackFlagsRunOrWrite(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.write("go.mod", "module tiny\n")
	mustWrite(t, filepath.Join(a.outside, "pre.sh"), "#!/bin/sh\ntouch "+filepath.Join(a.outside, "PROOF_rg")+"\ncat \"$1\"\n", 0o755)
	a.write("s.sed", "1e touch "+filepath.Join(a.repo, "PROOF_sedf")+"\n")
	a.write("a.awk", "BEGIN { system(\"touch "+filepath.Join(a.repo, "PROOF_awkf")+"\") }\n")
	tarCmd := exec.Command("tar", "-cf", "t.tar", "hello.txt")
	tarCmd.Dir = a.repo
	if out, err := tarCmd.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v %s", err, out)
	}
	gitIn(t, a.repo, "add", ".")
	gitIn(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "more")
	a.write("hello.txt", "hello changed\n") // so that git diff has something to show
	r := a.runForms("fl", flagForms())
	expectBlocked(t, r)
}

// gitHelperScript is a helper program the repository's configuration names: it
// records which git command ran it (the nearest git ancestor's command line) in a
// new PROOF_<kind>_XXXXXX file in the workspace (not named by pid: every sandboxed
// call has its own PID namespace), then behaves harmlessly.
const gitHelperScript = `#!/bin/sh
kind=$1; shift
p=$$; cmd=
while [ "$p" -gt 1 ] 2>/dev/null; do
  c=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)
  case "$c" in git\ *|*/git\ *) cmd=$c; break;; esac
  p=$(sed 's/^.*) //' /proc/$p/stat 2>/dev/null | cut -d' ' -f2)
  [ -n "$p" ] || break
done
echo "$cmd" > "$(mktemp "$MARKDIR/PROOF_${kind}_XXXXXX")"
case "$kind" in
  textconv) cat "$1" ;;
  gpg) cat >/dev/null; exit 1 ;;
esac
exit 0
`

// gitHelperForms each name one file fNN, so a helper run is traced back to the
// form whose command line it came from.
func gitHelperForms() []attackForm {
	return []attackForm{
		{Name: "diff-worktree", Cmd: `git diff -- f01.txt`},
		{Name: "diff-no-ext-diff-textconv", Cmd: `git diff --no-ext-diff -- f02.txt`},
		{Name: "diff-cached", Cmd: `git diff --cached -- f03.txt`},
		{Name: "diff-head", Cmd: `git diff HEAD -- f04.txt`},
		{Name: "log-p", Cmd: `git log -p -- f05.txt`},
		{Name: "log-p-ext-diff", Cmd: `git log -p --ext-diff -- f06.txt`},
		{Name: "show-head", Cmd: `git show HEAD -- f07.txt`},
		{Name: "show-textconv-blob", Cmd: `git show --textconv HEAD:f08.txt`},
		{Name: "diff-stat", Cmd: `git diff --stat -- f09.txt`},
		{Name: "log-stat-p", Cmd: `git log --stat -p -1 -- f10.txt`},
		{Name: "blame", Cmd: `git blame f11.txt`},
		{Name: "grep-textconv", Cmd: `git grep --textconv -e hello -- f13.txt`},
		{Name: "log-signed", Cmd: `git log -1 -- f14.txt`},
		{Name: "show-signed", Cmd: `git show -s HEAD -- f15.txt`},
		{Name: "status-path", Cmd: `git status -- f16.txt`},
		{Name: "diff-name-only", Cmd: `git diff --name-only -- f17.txt`},
		{Name: "status-short", Cmd: `git status --short -- f18.txt`},
		{Name: "log-show-signature", Cmd: `git log --show-signature -1 -- f20.txt`},
		{Name: "log-paginate", Cmd: `git -p log -1 -- f21.txt`},
		{Name: "difftool", Cmd: `git difftool -y -- f22.txt`},
		{Name: "diff-no-index", Cmd: `git diff --no-index f23.txt f24.txt`},
		{Name: "C-dot-diff", Cmd: `git -C . diff -- f25.txt`},
		{Name: "diff-word-diff", Cmd: `git diff --word-diff -- f26.txt`},
		{Name: "whatchanged", Cmd: `git whatchanged -p -1 -- f27.txt`},
	}
}

// setUpHelperRepo turns a.repo into a repository whose configuration names
// helper programs (all gitHelperScript in a.outside), with files f01…f27 in states
// that make each form's command run its helper.
func setUpHelperRepo(t *testing.T, a *attackEnv) {
	helper := filepath.Join(a.outside, "helper.sh")
	mustWrite(t, helper, strings.Replace(gitHelperScript, "$MARKDIR", a.repo, 1), 0o755)
	for i := 1; i <= 27; i++ {
		a.write(fileN(i), "hello original "+fileN(i)+"\n")
	}
	a.write(".gitattributes", "*.txt diff=tc\n")
	gitIn(t, a.repo, "add", ".")
	gitIn(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "files")
	for _, i := range []int{5, 6, 7, 10, 14, 15, 20, 21, 27} {
		a.write(fileN(i), "hello committed "+fileN(i)+"\n")
	}
	gitIn(t, a.repo, "add", ".")
	gitIn(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "second")
	// Sign HEAD with a (fake) signature, so log/show with log.showSignature run gpg.program.
	raw := gitIn(t, a.repo, "cat-file", "commit", "HEAD")
	signed := strings.Replace(raw, "\n\n", "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n", 1)
	hash := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	hash.Dir, hash.Stdin = a.repo, strings.NewReader(signed)
	sha, err := hash.Output()
	if err != nil {
		t.Fatal(err)
	}
	gitIn(t, a.repo, "update-ref", "HEAD", strings.TrimSpace(string(sha)))
	for _, i := range []int{1, 2, 4, 9, 16, 17, 18, 22, 23, 25, 26} {
		a.write(fileN(i), "hello modified "+fileN(i)+"\n")
	}
	a.write(fileN(3), "hello staged\n")
	gitIn(t, a.repo, "add", fileN(3))
	for _, kv := range [][2]string{
		{"diff.external", helper + " external"},
		{"diff.tc.textconv", helper + " textconv"},
		{"gpg.program", helper + " gpg"},
		{"log.showSignature", "true"},
		{"core.fsmonitor", helper + " fsmonitor"},
		{"core.pager", helper + " pager"},
		{"diff.tool", "evil"},
		{"difftool.evil.cmd", helper + " difftool"},
		{"difftool.prompt", "false"},
		{"core.hooksPath", filepath.Join(a.outside, "hooks")},
	} {
		gitIn(t, a.repo, "config", kv[0], kv[1])
	}
	for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout"} {
		mustWrite(t, filepath.Join(a.outside, "hooks", h), "#!/bin/sh\nexec "+helper+" hook-"+h+"\n", 0o755)
	}
	// The fixture's own git commands above ran helpers too: start clean.
	for _, p := range proofFiles(a.repo) {
		os.Remove(p)
	}
}

func fileN(i int) string { return "f" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + ".txt" }

// TestAttackGitRepoHelpers: read-only git commands never run the repository's
// helpers, whether they ask or run with the helpers disabled.
func TestAttackGitRepoHelpers(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	setUpHelperRepo(t, a)
	forms := gitHelperForms()
	r := a.runForms("gh", forms)
	// Trace each helper run back to its form by the fNN file its command line names.
	ran := map[string][]string{}
	var untraced []string
	fnn := regexp.MustCompile(`f[0-9][0-9]\.txt`)
	for _, p := range proofFiles(a.repo) {
		b, _ := os.ReadFile(p)
		line := strings.TrimSpace(string(b))
		if m := fnn.FindString(line); m != "" {
			ran[m] = append(ran[m], filepath.Base(p)+": "+line)
		} else {
			untraced = append(untraced, filepath.Base(p)+": "+line)
		}
	}
	for _, c := range r.Results {
		c := c
		t.Run(c.Form.Name, func(t *testing.T) {
			if got := ran[fnn.FindString(c.Input)]; len(got) > 0 {
				t.Errorf("ESCAPE: the repository's helper ran: %v\n  %s", got, c.describe())
			}
			t.Logf("decision %q by %q", c.Decision, c.By)
		})
	}
	t.Run("no-untraced-helper-run", func(t *testing.T) {
		if len(untraced) > 0 {
			t.Errorf("ESCAPE: helpers ran from git commands no form names (pincer's own git?): %v", untraced)
		}
	})
}
