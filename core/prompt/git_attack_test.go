package prompt

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The dynamic prompt runs git outside the sandbox on every model call, in a
// repository the model may have written. Each case below is a repository whose
// configuration names a helper program (a script that writes a marker file
// and dumps its environment); building the prompt must run none of them, and
// still report the repository.

// marker writes an executable script at dir/name that creates dir/name.PROOF
// with its environment in it, and passes its standard input through (so that
// a filter that does run still "works").
func marker(t *testing.T, dir, name string) (script, proof string) {
	t.Helper()
	script = filepath.Join(dir, name)
	proof = script + ".PROOF"
	body := "#!/bin/sh\nenv > '" + proof + "'\ncat\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, proof
}

// stale makes the index's stat data of path stale with the same content, so
// that `git status` hashes the file again (through its clean filter).
func stale(t *testing.T, path string) {
	t.Helper()
	later := time.Now().Add(5 * time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

func TestDetectGitRunsNoRepositoryHelper(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("OPENAI_API_KEY", "sk-test-openai-0123456789")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")
	t.Setenv("GITHUB_TOKEN", "ghp_test0123456789")
	t.Setenv("PINCER_API_KEY", "pk-test-0123456789")
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")

	type attack struct {
		name  string
		setup func(t *testing.T, repo, tools string) []string // returns the proofs that must not appear
	}
	attacks := []attack{
		{"core.fsmonitor", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "fsmonitor")
			git(t, repo, "config", "core.fsmonitor", s)
			return []string{p}
		}},
		{"core.fsmonitor hook version 2", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "fsmonitor2")
			git(t, repo, "config", "core.fsmonitor", s)
			git(t, repo, "config", "core.fsmonitorHookVersion", "2")
			return []string{p}
		}},
		{"fsmonitor through include.path", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "included")
			inc := filepath.Join(tools, "inc.config")
			if err := os.WriteFile(inc, []byte("[core]\n\tfsmonitor = "+s+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			git(t, repo, "config", "include.path", inc)
			return []string{p}
		}},
		{"fsmonitor in config.worktree", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "worktreecfg")
			git(t, repo, "config", "extensions.worktreeConfig", "true")
			git(t, repo, "config", "--worktree", "core.fsmonitor", s)
			return []string{p}
		}},
		{"hooks in .git/hooks", func(t *testing.T, repo, tools string) []string {
			var proofs []string
			for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout"} {
				s, p := marker(t, filepath.Join(repo, ".git", "hooks"), h)
				_ = s
				proofs = append(proofs, p)
			}
			return proofs
		}},
		{"core.hooksPath", func(t *testing.T, repo, tools string) []string {
			hooks := filepath.Join(tools, "hooks")
			_ = os.MkdirAll(hooks, 0o755)
			_, p := marker(t, hooks, "post-index-change")
			git(t, repo, "config", "core.hooksPath", hooks)
			return []string{p}
		}},
		{"clean filter on a stat-dirty file", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "clean")
			git(t, repo, "config", "filter.evil.clean", s)
			git(t, repo, "config", "filter.evil.required", "true")
			write(t, repo, ".gitattributes", "*.txt filter=evil\n")
			stale(t, filepath.Join(repo, "a.txt"))
			return []string{p}
		}},
		{"process filter with a dotted driver name", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "process")
			git(t, repo, "config", "filter.a.b.process", s)
			write(t, repo, ".gitattributes", "* filter=a.b\n")
			stale(t, filepath.Join(repo, "a.txt"))
			return []string{p}
		}},
		{"filter in .git/info/attributes", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "infoattr")
			git(t, repo, "config", "filter.quiet.clean", s)
			write(t, repo, ".git/info/attributes", "a.txt filter=quiet\n")
			stale(t, filepath.Join(repo, "a.txt"))
			return []string{p}
		}},
		{"pager", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "pager")
			git(t, repo, "config", "core.pager", s)
			git(t, repo, "config", "pager.status", s)
			git(t, repo, "config", "pager.log", s)
			return []string{p}
		}},
		{"log.showSignature with gpg.program", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "gpg")
			git(t, repo, "config", "log.showSignature", "true")
			git(t, repo, "config", "gpg.program", s)
			git(t, repo, "config", "gpg.ssh.program", s)
			return []string{p}
		}},
		{"diff.external and textconv", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "extdiff")
			git(t, repo, "config", "diff.external", s)
			git(t, repo, "config", "diff.evil.textconv", s)
			write(t, repo, ".gitattributes", "* diff=evil\n")
			return []string{p}
		}},
		{"submodule with its own fsmonitor", func(t *testing.T, repo, tools string) []string {
			sub := filepath.Join(tools, "subsrc")
			git(t, tools, "init", "-q", sub)
			write(t, sub, "s.txt", "s\n")
			git(t, sub, "add", "s.txt")
			git(t, sub, "commit", "-q", "-m", "s")
			git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "mod")
			git(t, repo, "commit", "-q", "-m", "add submodule")
			s, p := marker(t, tools, "subfsmonitor")
			git(t, filepath.Join(repo, "mod"), "config", "core.fsmonitor", s)
			stale(t, filepath.Join(repo, "mod", "s.txt"))
			return []string{p}
		}},
		{"everything at once", func(t *testing.T, repo, tools string) []string {
			s, p := marker(t, tools, "all")
			for _, kv := range [][2]string{{"core.fsmonitor", s}, {"core.pager", s}, {"filter.x.clean", s},
				{"filter.x.process", s}, {"diff.external", s}, {"log.showSignature", "true"}, {"gpg.program", s}} {
				git(t, repo, "config", kv[0], kv[1])
			}
			write(t, repo, ".gitattributes", "* filter=x\n")
			stale(t, filepath.Join(repo, "a.txt"))
			return []string{p}
		}},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			repo, tools := t.TempDir(), t.TempDir()
			git(t, repo, "init", "-q", "-b", "trunk")
			write(t, repo, "a.txt", "one\n")
			git(t, repo, "add", "a.txt")
			git(t, repo, "commit", "-q", "-m", "first commit")
			proofs := a.setup(t, repo, tools)

			info := DetectGit(repo, 10*time.Second)
			// Segments is what the agent calls per model call.
			_ = Segments(Env{Cwd: repo, Instructions: &Instructions{}})

			for _, p := range proofs {
				if b, err := os.ReadFile(p); err == nil {
					leaked := ""
					for _, k := range []string{"sk-test-openai", "sk-ant-test", "ghp_test", "pk-test"} {
						if strings.Contains(string(b), k) {
							leaked += " " + k
						}
					}
					t.Errorf("the repository's helper ran (%s); keys in its environment:%s", filepath.Base(p), leaked)
				}
			}
			if !info.IsRepo || info.Branch != "trunk" || info.Incomplete || len(info.Commits) == 0 {
				t.Errorf("the repository is no longer reported: %+v", info)
			}
		})
	}
}

// TestOwnGitGetsNoSecrets puts a stand-in git first on PATH that records its
// arguments and environment, and checks what pincer's own git got.
func TestOwnGitGetsNoSecrets(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin, repo := t.TempDir(), t.TempDir()
	git(t, repo, "init", "-q", "-b", "trunk")
	record := filepath.Join(bin, "record")
	script := "#!/bin/sh\n{ echo ARGS: \"$@\"; env; } >> '" + record + "'\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	secrets := map[string]string{
		"OPENAI_API_KEY": "sk-own-openai-0123456789", "ANTHROPIC_API_KEY": "sk-own-ant-0123456789",
		"DEEPSEEK_API_KEY": "sk-own-ds-0123456789", "MY_VLLM_API_KEY": "sk-own-vllm-0123456789",
		"AWS_SECRET_ACCESS_KEY": "aws-own-secret-0123", "AWS_SESSION_TOKEN": "aws-own-session-0123",
		"GH_TOKEN": "gh-own-0123456789", "NPM_TOKEN": "npm-own-0123456789", "DB_PASSWORD": "pw-own-0123456789",
		"PINCER_API_KEY": "pk-own-0123456789", "PINCER_SECRET_KEY": "psk-own-0123456789",
		"SOME_CLIENT_SECRET": "cs-own-0123456789", "SIGNING_PRIVATE_KEY": "pkey-own-0123456789",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("GIT_CONFIG_COUNT", "1") // an inherited override must not survive
	t.Setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
	t.Setenv("GIT_CONFIG_VALUE_0", "/bin/false")

	if info := DetectGit(repo, 10*time.Second); !info.IsRepo {
		t.Fatalf("not detected through the stand-in: %+v", info)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for k, v := range secrets {
		if strings.Contains(out, v) {
			t.Errorf("%s reached pincer's own git", k)
		}
	}
	runs := strings.Count(out, "ARGS:")
	if runs < 2 {
		t.Fatalf("expected several git runs, got %d:\n%s", runs, out)
	}
	for _, want := range []string{"core.fsmonitor=false", "core.hooksPath=/dev/null", "--no-pager", "--no-optional-locks"} {
		if strings.Count(out, want) < runs {
			t.Errorf("not every git got %s", want)
		}
	}
	for _, want := range []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"} {
		if strings.Count(out, want) < runs {
			t.Errorf("not every git had %s", want)
		}
	}
	if strings.Contains(out, "GIT_CONFIG_VALUE_0=/bin/false") {
		t.Error("an inherited GIT_CONFIG_* override reached pincer's own git")
	}
}
