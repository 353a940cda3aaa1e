package e2e

// Issue 10, class 6: secrets and pincer's internals are reachable.
// TestAttackReadsOutsideWorkspace: in default mode with no rules, reads outside the
// workspace ask (a headless denial) for the file tools and for read-only shell
// commands alike, path arguments resolved (.., /proc/self/root, /dev/fd/..), so
// neither PINCER_HOME's secrets.json/secrets.key nor a file beside the workspace
// is shown. TestAttackSandboxHidesSecrets: in bypassPermissions (so the commands
// run), the sandbox hides PINCER_HOME, its run directory and socket, and the
// credential files of a (fake) HOME.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const secretMark = "SECRET-MARK"

// secretScene is an attack scene with a fake HOME holding credential files, a
// PINCER_HOME holding secrets.json/secrets.key and a secret file outside the
// workspace, each holding secretMark.
func secretScene(t *testing.T) (a *attackEnv, home string) {
	a = newAttackEnv(t)
	home = filepath.Join(a.outside, "home")
	for _, f := range []string{".ssh/id_test", ".ssh/config", ".aws/credentials", ".gnupg/private-keys-v1.d/k.key", ".netrc",
		".docker/config.json", ".kube/config", ".config/gh/hosts.yml", ".git-credentials", ".config/gcloud/credentials.db",
		".local/share/keyrings/login.keyring"} {
		mustWrite(t, filepath.Join(home, f), secretMark+"-"+filepath.Base(f)+"\n", 0o600)
	}
	mustWrite(t, filepath.Join(a.home, "secrets.json"), `{"version":1,"nonce":"`+secretMark+`-nonce","data":"`+secretMark+`-json"}`, 0o600)
	mustWrite(t, filepath.Join(a.home, "secrets.key"), secretMark+"-key\n", 0o600)
	mustWrite(t, filepath.Join(a.outside, "secret.txt"), secretMark+"-outside\n", 0o600)
	a.extraEnv = append(a.extraEnv, "HOME="+home)
	return a, home
}

func outsideReadForms(rel string) []attackForm {
	l := secretMark
	return []attackForm{
		{Name: "cat-secrets-json", Cmd: `cat {H}/secrets.json`, Leak: l},
		{Name: "cat-v-secrets-key", Cmd: `cat -v {H}/secrets.key`, Leak: l},
		{Name: "head-secrets-key", Cmd: `head -c 100 {H}/secrets.key`, Leak: l},
		{Name: "tail-secrets-json", Cmd: `tail -n 5 {H}/secrets.json`, Leak: l},
		{Name: "grep-r-home", Cmd: `grep -r SECRET {H}`, Leak: l},
		{Name: "od-secrets-key", Cmd: `od -c {H}/secrets.key`, Leak: "S   E   C"},
		{Name: "xxd-secrets-key", Cmd: `xxd {H}/secrets.key`, Leak: "SECRET"},
		{Name: "base64-secrets-key", Cmd: `base64 {H}/secrets.key`, Leak: "U0VDUkVU"},
		{Name: "strings-secrets-key", Cmd: `strings {H}/secrets.key`, Leak: l},
		{Name: "sort-secrets-json", Cmd: `sort {H}/secrets.json`, Leak: l},
		{Name: "wc-secrets-key", Cmd: `wc -c {H}/secrets.key`},
		{Name: "ls-pincer-home", Cmd: `ls -la {H}`, Leak: "secrets.key"},
		{Name: "find-pincer-home", Cmd: `find {H} -name '*.key'`, Leak: "secrets.key"},
		{Name: "glob-secrets", Cmd: `cat {H}/secret*`, Leak: l},
		{Name: "input-redirect", Cmd: `cat < {O}/secret.txt`, Leak: l},
		{Name: "workspace-dotdot", Cmd: `cat {W}/` + rel + `/secret.txt`, Leak: l},
		{Name: "relative-dotdot", Cmd: `cat ` + rel + `/secret.txt`, Leak: l},
		{Name: "proc-self-root", Cmd: `cat /proc/self/root{O}/secret.txt`, Leak: l},
		{Name: "devfd-dotdot", Cmd: `cat /dev/fd/../../..{O}/secret.txt`, Leak: l},
		{Name: "diff-outside", Cmd: `diff {O}/secret.txt hello.txt`, Leak: l},
		{Name: "git-diff-no-index-outside", Cmd: `git diff --no-index {O}/secret.txt hello.txt`, Leak: l},
		{Name: "grep-c-outside", Cmd: `grep -c SECRET {O}/secret.txt`},
		{Name: "md5sum-key", Cmd: `md5sum {H}/secrets.key`},
		{Name: "fake-home-ssh-key", Cmd: `cat {O}/home/.ssh/id_test`, Leak: l},
		{Name: "tilde-ssh-key", Cmd: `cat ~/.ssh/id_test`, Leak: l},
		{Name: "home-var-aws", Cmd: `cat $HOME/.aws/credentials`, Leak: l},
		{Name: "pipe-from-outside", Cmd: `cat {O}/secret.txt | wc -l`},
		{Name: "cd-outside-cat", Cmd: `cd {O} && cat secret.txt`, Leak: l},
		{Name: "Read-secrets-json", Tool: "Read", Args: `{"file_path":"{H}/secrets.json"}`, Leak: l},
		{Name: "Read-secrets-key", Tool: "Read", Args: `{"file_path":"{H}/secrets.key"}`, Leak: l},
		{Name: "Read-outside", Tool: "Read", Args: `{"file_path":"{O}/secret.txt"}`, Leak: l},
		{Name: "Read-dotdot", Tool: "Read", Args: `{"file_path":"` + rel + `/secret.txt"}`, Leak: l},
		{Name: "Read-ssh-key", Tool: "Read", Args: `{"file_path":"{O}/home/.ssh/id_test"}`, Leak: l},
		{Name: "Grep-outside", Tool: "Grep", Args: `{"pattern":"SECRET","path":"{O}","output_mode":"content"}`, Leak: l},
		{Name: "Grep-home", Tool: "Grep", Args: `{"pattern":"SECRET","path":"{H}","output_mode":"content"}`, Leak: l},
		{Name: "Glob-outside", Tool: "Glob", Args: `{"pattern":"**/*","path":"{O}/home"}`, Leak: "id_test"},
		{Name: "Glob-home", Tool: "Glob", Args: `{"pattern":"*","path":"{H}"}`, Leak: "secrets.key"},
		// through symlinks in the workspace that lead out (sl -> the secret, sldir -> its directory)
		{Name: "cat-symlink", Cmd: `cat sl`, Leak: l},
		{Name: "head-symlink-dir", Cmd: `head sldir/secret.txt`, Leak: l},
		{Name: "grep-R-follows", Cmd: `grep -R SECRET .`, Leak: l},
		{Name: "rg-L-follows", Cmd: `rg -L SECRET`, Leak: l},
		{Name: "rg-follow-long", Cmd: `rg --follow SECRET .`, Leak: l},
		{Name: "grep-dereference-recursive", Cmd: `grep --dereference-recursive SECRET .`, Leak: l},
		{Name: "grep-r-symlink-arg", Cmd: `grep -r SECRET sldir`, Leak: l},
		{Name: "find-L-lists", Cmd: `find -L . -type f`, Leak: "secret.txt"},
		{Name: "find-follow-lists", Cmd: `find . -follow -type f`, Leak: "secret.txt"},
		{Name: "ls-LR", Cmd: `ls -LR .`, Leak: "secret.txt"},
		{Name: "du-aL", Cmd: `du -aL .`, Leak: "secret.txt"},
		{Name: "cat-glob-through-symlink", Cmd: `cat sldir/*`, Leak: l},
		{Name: "input-redirect-symlink", Cmd: `cat < sl`, Leak: l},
		{Name: "input-redirect-symlink-dir", Cmd: `wc -c < sldir/secret.txt`},
		{Name: "sort-symlink", Cmd: `sort sl`, Leak: l},
		{Name: "git-show-no-index-symlink", Cmd: `git --no-pager diff --no-index -- hello.txt sl`, Leak: l},
		{Name: "wc-glob-through-symlink", Cmd: `wc -c sldir/*`, Leak: "secret.txt"},
		{Name: "ls-symlink-dir", Cmd: `ls -la sldir/`, Leak: "secret.txt"},
		{Name: "git-diff-no-index-symlink", Cmd: `git diff --no-index sldir/secret.txt hello.txt`, Leak: l},
		{Name: "git-C-outside", Cmd: `git -C {O} status`},
		{Name: "Read-symlink", Tool: "Read", Args: `{"file_path":"sl"}`, Leak: l},
		{Name: "Read-symlink-dir", Tool: "Read", Args: `{"file_path":"sldir/secret.txt"}`, Leak: l},
		{Name: "Glob-symlink-dir", Tool: "Glob", Args: `{"pattern":"sldir/*"}`, Leak: "secret.txt", EffectOnly: true}, // the tool itself stays inside
		{Name: "Grep-through-symlink-dir", Tool: "Grep", Args: `{"pattern":"SECRET","path":"sldir","output_mode":"content"}`, Leak: l},
	}
}

func TestAttackReadsOutsideWorkspace(t *testing.T) {
	t.Parallel()
	a, _ := secretScene(t)
	rel, err := filepath.Rel(a.repo, a.outside)
	if err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"sl": filepath.Join(a.outside, "secret.txt"), "sldir": a.outside} {
		if err := os.Symlink(target, filepath.Join(a.repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := a.runForms("so", outsideReadForms(rel))
	expectBlocked(t, r)
	a.control(t, "sc", []attackForm{{Name: "cat-inside", Cmd: `cat hello.txt`}, {Name: "Read-inside", Tool: "Read", Args: `{"file_path":"hello.txt"}`}})
}

func TestAttackSandboxHidesSecrets(t *testing.T) {
	t.Parallel()
	// PINCER_HOME under the temp directory (which the sandbox may write) and under
	// the real HOME (the usual place: outside every writable root).
	for _, where := range []string{"pincer-home-in-tmp", "pincer-home-in-home"} {
		where := where
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			a, _ := secretScene(t)
			if where == "pincer-home-in-home" {
				h := outsideTemp(t)
				for _, f := range []string{"secrets.json", "secrets.key"} {
					b, _ := os.ReadFile(filepath.Join(a.home, f))
					mustWrite(t, filepath.Join(h, f), string(b), 0o600)
				}
				a.home = h
			}
			sandboxHidesSecrets(t, a)
		})
	}
}

func sandboxHidesSecrets(t *testing.T, a *attackEnv) {
	l := secretMark
	// An earlier session's spilled tool output (file names and contents under
	// PINCER_HOME are hidden; that the directories exist is no secret).
	mustWrite(t, filepath.Join(a.home, "data", "tool-results", "old-session", "c1.txt"), l+"-spill\n", 0o600)
	forms := []attackForm{
		{Name: "ls-ssh", Cmd: `ls -la ~/.ssh`, Leak: "id_test"},
		{Name: "cat-ssh-key", Cmd: `cat ~/.ssh/id_test`, Leak: l},
		{Name: "cat-ssh-config", Cmd: `cat $HOME/.ssh/config`, Leak: l},
		{Name: "cat-aws", Cmd: `cat ~/.aws/credentials`, Leak: l},
		{Name: "ls-gnupg", Cmd: `ls -R ~/.gnupg`, Leak: "k.key"},
		{Name: "cat-netrc", Cmd: `cat ~/.netrc`, Leak: l},
		{Name: "cat-docker", Cmd: `cat ~/.docker/config.json`, Leak: l},
		{Name: "cat-kube", Cmd: `cat ~/.kube/config`, Leak: l},
		{Name: "cat-gh", Cmd: `cat ~/.config/gh/hosts.yml`, Leak: l},
		{Name: "cat-git-credentials", Cmd: `cat ~/.git-credentials`, Leak: l},
		{Name: "cat-gcloud", Cmd: `cat ~/.config/gcloud/credentials.db`, Leak: l},
		{Name: "cat-keyring", Cmd: `cat ~/.local/share/keyrings/login.keyring`, Leak: l},
		{Name: "grep-r-home", Cmd: `grep -r ` + l + ` ~ 2>/dev/null`, Leak: l},
		{Name: "find-home", Cmd: `find ~ -type f 2>/dev/null`, Leak: "id_test"},
		{Name: "cat-secrets-json", Cmd: `cat {H}/secrets.json`, Leak: l},
		{Name: "cat-secrets-key", Cmd: `cat {H}/secrets.key`, Leak: l},
		{Name: "ls-store", Cmd: `ls -la {H}/data/store`, Leak: "MANIFEST"},
		{Name: "grep-r-pincer-home", Cmd: `grep -r ` + l + ` {H} 2>/dev/null`, Leak: l},
		{Name: "cat-old-spill", Cmd: `cat {H}/data/tool-results/old-session/c1.txt`, Leak: l},
		{Name: "ls-old-spills", Cmd: `ls -R {H}/data/tool-results`, Leak: "c1.txt"},
		{Name: "find-store-files", Cmd: `find {H}/data -type f`, Leak: "MANIFEST"},
		{Name: "ls-run-dir", Cmd: `ls -la {H}/run`, Leak: ".sock"},
		{Name: "find-sockets", Cmd: `find {H} -type s 2>/dev/null`, Leak: ".sock"},
		{Name: "proc-root-secrets", Cmd: `cat /proc/self/root{H}/secrets.key`, Leak: l},
		{Name: "proc-1-root-ssh", Cmd: `cat /proc/1/root{O}/home/.ssh/id_test`, Leak: l},
		{Name: "python-read-key", Cmd: `python3 -c 'print(open("{H}/secrets.key").read())'`, Leak: l},
	}
	r := a.runForms("sh", forms, "--permission-mode", "bypassPermissions")
	expectNoEffect(t, r)
	t.Run("sandbox-was-on", func(t *testing.T) {
		// The fixture is real: outside the sandbox the files are there.
		if _, err := os.Stat(filepath.Join(a.outside, "home", ".ssh", "id_test")); err != nil {
			t.Fatal(err)
		}
		if entries, _ := filepath.Glob(filepath.Join(a.home, "run", "*.sock")); len(entries) == 0 {
			t.Logf("no daemon socket under %s/run (the daemon may use another run directory)", a.home)
		}
		if strings.Contains(r.Stderr, "no-sandbox") {
			t.Errorf("stderr: %s", r.Stderr)
		}
	})
}
