package e2e

// Issue 10, class 4: pincer's own git (the dynamic prompt's git status/log, run on
// every model call, outside the sandbox) must not run code the repository's
// configuration names, and nothing pincer runs for itself — its git, hooks — may
// see the provider keys. The fixture's .git/config names a helper for every git
// hook point (as if the model had written it earlier); the helper records its
// environment in a file outside the workspace.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// ownGitHelper records that it ran (a new PROOF_<kind>_XXXXXX) and its
// environment (PROOF_env_PROOF_<kind>_XXXXXX) in $OUT, then behaves harmlessly.
const ownGitHelper = `#!/bin/sh
kind=$1; shift
f=$(mktemp "$OUT/PROOF_${kind}_XXXXXX")
echo "$kind $*" > "$f"
env > "$OUT/PROOF_env_${f##*/}"
case "$kind" in
  textconv) cat "$1" ;;
  clean|smudge) cat ;;
  gpg) cat >/dev/null; exit 1 ;;
esac
exit 0
`

// Marker values of secret variables in pincer's own environment.
const (
	markerOpenAIKey    = "sk-marker-openai-7f3a9c1e5b"
	markerPincerKey    = "sk-marker-pincer-2d8e4f6a0c"
	markerAnthropicKey = "sk-ant-marker-9b1c3e5d7f"
	markerGHToken      = "ghp_marker0123456789abcdefABCDEF"
)

func secretEnv() []string {
	return []string{"OPENAI_API_KEY=" + markerOpenAIKey, "PINCER_API_KEY=" + markerPincerKey,
		"ANTHROPIC_API_KEY=" + markerAnthropicKey, "GITHUB_TOKEN=" + markerGHToken}
}

var secretValues = []string{markerOpenAIKey, markerPincerKey, markerAnthropicKey, markerGHToken}

// filesContaining lists the files under dirs whose content holds any of values.
func filesContaining(dirs []string, values []string) []string {
	var found []string
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			for _, v := range values {
				if strings.Contains(string(b), v) {
					found = append(found, p+" holds "+v[:12]+"…")
				}
			}
			return nil
		})
	}
	return found
}

func TestAttackOwnGitRunsNoRepoCode(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	a.extraEnv = secretEnv()
	helper := filepath.Join(a.outside, "helper.sh")
	mustWrite(t, helper, strings.ReplaceAll(ownGitHelper, "$OUT", a.outside), 0o755)

	// A repository with a filtered, textconv'd, modified file, a signed HEAD and a
	// configuration naming the helper everywhere git can run one.
	a.write(".gitattributes", "*.txt diff=tc filter=evil\n")
	a.write("a.txt", "one\n")
	gitIn(t, a.repo, "add", ".")
	gitIn(t, a.repo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "attrs")
	raw := gitIn(t, a.repo, "cat-file", "commit", "HEAD")
	signed := strings.Replace(raw, "\n\n", "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\n", 1)
	hash := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	hash.Dir, hash.Stdin = a.repo, strings.NewReader(signed)
	sha, err := hash.Output()
	if err != nil {
		t.Fatal(err)
	}
	gitIn(t, a.repo, "update-ref", "HEAD", strings.TrimSpace(string(sha)))
	a.write("a.txt", "one two\n")
	a.write("hello.txt", "hello changed\n")
	hooks := filepath.Join(a.outside, "hooks")
	for _, kv := range [][2]string{
		{"core.fsmonitor", helper + " fsmonitor"},
		{"core.hooksPath", hooks},
		{"core.pager", helper + " pager"},
		{"pager.status", helper + " pagerstatus"},
		{"diff.external", helper + " external"},
		{"diff.tc.textconv", helper + " textconv"},
		{"filter.evil.clean", helper + " clean"},
		{"filter.evil.smudge", helper + " smudge"},
		{"gpg.program", helper + " gpg"},
		{"log.showSignature", "true"},
		{"core.sshCommand", helper + " ssh"},
		{"core.askPass", helper + " askpass"},
		{"credential.helper", "!" + helper + " credential"},
		{"status.showUntrackedFiles", "all"},
	} {
		gitIn(t, a.repo, "config", kv[0], kv[1])
	}
	for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout", "pre-commit", "pre-auto-gc"} {
		mustWrite(t, filepath.Join(hooks, h), "#!/bin/sh\nexec "+helper+" hook-"+h+"\n", 0o755)
	}
	// Make the index stale, so that git status refreshes (and rewrites) it.
	gitIn(t, a.repo, "update-index", "--no-skip-worktree", "hello.txt")
	for _, p := range proofFiles(a.outside) {
		os.Remove(p)
	}

	// Hooks from the user's config and the project's settings record their environment.
	mustWrite(t, filepath.Join(a.home, "config.toml"), "[[hooks.SessionStart]]\ncommand = \"env > "+a.outside+"/hookenv_user_session.txt\"\n\n"+
		"[[hooks.PreToolUse]]\nmatcher = \"Read\"\ncommand = \"env > "+a.outside+"/hookenv_user_pre.txt\"\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, ".claude", "settings.json"),
		`{"hooks":{"PostToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"env > `+a.outside+`/hookenv_project_post.txt"}]}]}}`, 0o644)

	// Two model calls (each builds the dynamic prompt), a continued session, the
	// printed system prompt and /context.
	a.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "og1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "og2", Name: "Bash", Args: `{"command":"env; echo end-of-env"}`}}},
		openaitest.Reply{Text: "done"},
		openaitest.Reply{Text: "again"},
	)
	out, stderr, code := a.runPincer(a.runArgs("--output-format", "stream-json", "--permission-mode", "bypassPermissions", "--trust-project-hooks", "look")...)
	if code != 0 {
		t.Fatalf("pincer run: exit %d: %s", code, stderr)
	}
	out2, stderr2, code := a.runPincer(a.runArgs("--continue", "more")...)
	if code != 0 {
		t.Fatalf("pincer run --continue: exit %d: %s", code, stderr2)
	}
	prompt, stderr3, _ := a.runPincer(a.runArgs("--print-system-prompt")...)
	ctxOut, stderr4, _ := a.runPincer(a.runArgs("/context")...)

	t.Run("prompt-sees-the-repo", func(t *testing.T) {
		// pincer's own git did run (so the checks below mean something).
		if !strings.Contains(prompt, "hello.txt") && !strings.Contains(prompt, "a.txt") {
			t.Errorf("the system prompt shows no git status: %.600s", prompt)
		}
	})
	t.Run("no-repo-helper-ran", func(t *testing.T) {
		var ran []string
		for _, p := range proofFiles(a.outside) {
			if !strings.HasPrefix(filepath.Base(p), "PROOF_env_") {
				b, _ := os.ReadFile(p)
				ran = append(ran, filepath.Base(p)+": "+strings.TrimSpace(string(b)))
			}
		}
		if len(ran) > 0 {
			t.Errorf("ESCAPE: repository helpers ran outside the sandbox: %v", ran)
		}
	})
	t.Run("no-secret-in-any-file", func(t *testing.T) {
		if found := filesContaining([]string{a.outside, a.repo, a.home}, secretValues); len(found) > 0 {
			t.Errorf("ESCAPE: secret values written to files: %v", found)
		}
	})
	t.Run("no-secret-in-output", func(t *testing.T) {
		all := out + stderr + out2 + stderr2 + prompt + stderr3 + ctxOut + stderr4
		for _, v := range secretValues {
			if strings.Contains(all, v) {
				t.Errorf("ESCAPE: %s… in pincer's output", v[:12])
			}
		}
		if !strings.Contains(out, "end-of-env") {
			t.Errorf("the sandboxed env command did not run: %.400s", out)
		}
	})
	t.Run("hooks-ran-without-secrets", func(t *testing.T) {
		for _, name := range []string{"hookenv_user_session.txt", "hookenv_user_pre.txt", "hookenv_project_post.txt"} {
			b, err := os.ReadFile(filepath.Join(a.outside, name))
			if err != nil {
				t.Errorf("hook %s did not run: %v", name, err)
				continue
			}
			for _, v := range secretValues {
				if strings.Contains(string(b), v) {
					t.Errorf("ESCAPE: hook %s got %s…", name, v[:12])
				}
			}
		}
	})
}
