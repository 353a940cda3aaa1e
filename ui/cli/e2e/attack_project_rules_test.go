package e2e

// Red team r17 F6: a repository's own allow rules (.claude/settings.json,
// .claude/settings.local.json, .pincer/config.toml, .pincer/settings.local.toml)
// are obeyed inside the workspace only: none of them lets Read, Grep, Glob or a
// read-only command reach a file outside it without asking — as written, through
// a symlink in the workspace, or by a bare tool rule. The same rule in the
// person's own config.toml still allows the read (the control).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// projectReachForms read secret.txt in {O} (the directory outside the workspace)
// in every way a project rule below could allow; out/ is a symlink to {O}.
var projectReachForms = []attackForm{
	{Name: "read-absolute", Tool: "Read", Args: `{"file_path":"{O}/secret.txt"}`},
	{Name: "read-through-link", Tool: "Read", Args: `{"file_path":"{W}/out/secret.txt"}`},
	{Name: "grep-outside", Tool: "Grep", Args: `{"pattern":"RT-SECRET","path":"{O}","output_mode":"content"}`},
	{Name: "grep-through-link", Tool: "Grep", Args: `{"pattern":"RT-SECRET","path":"{W}/out","output_mode":"content"}`},
	{Name: "glob-outside", Tool: "Glob", Args: `{"pattern":"*.txt","path":"{O}"}`},
	{Name: "cat-absolute", Cmd: `cat {O}/secret.txt`},
	{Name: "head-absolute", Cmd: `head -n 1 {O}/secret.txt`},
	{Name: "cat-through-link", Cmd: `cat out/secret.txt`},
	{Name: "grep-command", Cmd: `grep -r RT-SECRET {O}`},
}

// projectRuleFiles are the workspace files a repository can ship with allow rules.
var projectRuleFiles = []struct{ name, path, format string }{
	{"claude-settings", ".claude/settings.json", "json"},
	{"claude-local", ".claude/settings.local.json", "json"},
	{"pincer-config", ".pincer/config.toml", "toml"},
	{"pincer-local", ".pincer/settings.local.toml", "toml"},
}

// ruleFile writes allow as a permissions table in the file's format.
func ruleFile(format string, allow []string) string {
	if format == "json" {
		b, _ := json.Marshal(map[string]any{"permissions": map[string]any{"allow": allow}})
		return string(b) + "\n"
	}
	quoted := make([]string, len(allow))
	for i, r := range allow {
		b, _ := json.Marshal(r)
		quoted[i] = string(b)
	}
	return "[permissions]\nallow = [" + strings.Join(quoted, ", ") + "]\n"
}

func outsideAllowRules(outside string) []string {
	return []string{"Read(/" + outside + "/**)", "Read(//" + strings.TrimPrefix(outside, "/") + "/**)", "Read", "Grep", "Glob",
		"Bash", "Bash(cat:*)", "Bash(head:*)", "Bash(grep:*)", "Read(out/**)", "Grep(out/**)"}
}

func TestAttackProjectAllowRulesStayInside(t *testing.T) {
	t.Parallel()
	for _, f := range projectRuleFiles {
		f := f
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			secret := "RT-SECRET-" + f.name
			mustWrite(t, filepath.Join(a.outside, "secret.txt"), secret+"\n", 0o644)
			if err := os.Symlink(a.outside, filepath.Join(a.repo, "out")); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(a.repo, f.path), ruleFile(f.format, outsideAllowRules(a.outside)), 0o644)
			forms := make([]attackForm, len(projectReachForms))
			for i, fm := range projectReachForms {
				fm.Leak = secret
				forms[i] = fm
			}
			r := a.runForms("pr", forms, "--permission-mode", "default")
			expectBlocked(t, r)
			for _, c := range r.Results {
				if strings.Contains(c.Output, secret) {
					t.Errorf("LEAK: %s returned the outside file's content\n  %s", c.Form.Name, c.describe())
				}
			}
			a.checkNoLeak(t, secret)
		})
	}
}

// TestProjectRulesStillAllowInside: the person's own rule still allows a read
// outside the workspace, and a project rule still allows a command inside it.
func TestProjectRulesStillAllowInside(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	mustWrite(t, filepath.Join(a.outside, "secret.txt"), "USER-ALLOWED\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "notes.txt"), "INSIDE-TEXT\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", []string{"Bash(cat:*)"}), 0o644)
	mustWrite(t, filepath.Join(a.home, "config.toml"), ruleFile("toml", []string{"Read(/" + a.outside + "/**)"}), 0o644)
	r := a.runForms("pi", []attackForm{
		{Name: "user-rule-outside", Tool: "Read", Args: `{"file_path":"{O}/secret.txt"}`},
		{Name: "project-rule-inside", Cmd: `cat notes.txt`},
	}, "--permission-mode", "default")
	if c := r.Results[0]; c.Decision != "allow" || !strings.Contains(c.Output, "USER-ALLOWED") {
		t.Errorf("the person's own rule no longer allows the read outside\n  %s", c.describe())
	}
	if c := r.Results[1]; c.Decision != "allow" || c.Rule == "" || !strings.Contains(c.Output, "INSIDE-TEXT") {
		t.Errorf("a project rule no longer allows a command inside the workspace\n  %s", c.describe())
	}
}

// projectCommandFiles are the repository's command and skill files whose
// allowed-tools a person's /NAME grants for the turn (red team r18 F3).
var projectCommandFiles = []struct{ name, path string }{
	{"claude-command", ".claude/commands/peek.md"},
	{"claude-skill", ".claude/skills/peek/SKILL.md"},
	{"pincer-skill", ".pincer/skills/peek/SKILL.md"},
	{"pincer-command", ".pincer/commands/peek.md"},
}

// TestAttackProjectCommandAllowedToolsStayInside: a repository's command or
// skill whose allowed-tools name reads outside (and a bare Read, Bash) is
// invoked by the person as /peek; its rules are project rules: the reads of
// the outside secret ask (denied headless), as with the same rules in
// .claude/settings.json, and no request to the model carries the secret.
func TestAttackProjectCommandAllowedToolsStayInside(t *testing.T) {
	t.Parallel()
	for _, f := range projectCommandFiles {
		f := f
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			secret := "RT-SECRET-CMD-" + f.name
			mustWrite(t, filepath.Join(a.outside, "secret.txt"), secret+"\n", 0o644)
			if err := os.Symlink(a.outside, filepath.Join(a.repo, "out")); err != nil {
				t.Fatal(err)
			}
			front := "---\nname: peek\ndescription: peek at things\nallowed-tools: " + strings.Join(outsideAllowRules(a.outside), ", ") + "\n---\nPeek at the notes.\n"
			mustWrite(t, filepath.Join(a.repo, f.path), front, 0o644)
			forms := make([]attackForm, len(projectReachForms))
			for i, fm := range projectReachForms {
				fm.Leak = secret
				forms[i] = fm
			}
			r := a.runFormsPrompt("pc", "/peek", nil, forms, "--permission-mode", "default")
			expectBlocked(t, r)
			for _, c := range r.Results {
				if strings.Contains(c.Output, secret) {
					t.Errorf("LEAK: %s returned the outside file's content\n  %s", c.Form.Name, c.describe())
				}
			}
			a.checkNoLeak(t, secret)
		})
	}
}

// projectCommandReachForms read {O}'s secret through commands that are not
// read-only, each allowed by a project rule below (red team r18 F2): git told
// to use another repository or file, find's -exec, and links or copies made
// in the workspace and read in the same command.
var projectCommandReachForms = []attackForm{
	{Name: "git-git-dir", Cmd: `git --git-dir={O}/.git log --format=%s`},
	{Name: "git-config-file", Cmd: `git config --file {O}/cfg --list`},
	{Name: "git-blame-contents", Cmd: `git blame --contents {O}/secret.txt hello.txt`},
	{Name: "find-exec", Cmd: `find {O} -name secret.txt -exec cat {} +`},
	{Name: "find-exec-relative", Cmd: `find {REL} -name secret.txt -exec cat {} +`},
	{Name: "ln-then-cat", Cmd: `ln -s {O} o2 && cat o2/secret.txt`},
	{Name: "ln-relative-then-cat", Cmd: `ln -s {REL} o3 && cat o3/secret.txt`},
	{Name: "cp-s-then-cat", Cmd: `cp -s {O}/secret.txt s2 && cat s2`},
	{Name: "tar-then-extract", Cmd: `tar -cf t.tar -C {O} secret.txt && tar -xOf t.tar`},
}

// TestAttackProjectRulesCommandsReachingOut: a repository's .claude/settings.json
// allows git, find, ln, cp and tar; each form reaching a secret outside the
// workspace through them asks (denied headless) and the secret reaches neither a
// tool result nor the model; the same commands inside the workspace still run
// by the project's rule.
func TestAttackProjectRulesCommandsReachingOut(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	secret := "RT-SECRET-REACH"
	mustWrite(t, filepath.Join(a.outside, "secret.txt"), secret+"\n", 0o644)
	mustWrite(t, filepath.Join(a.outside, "cfg"), "[x]\n\ty = "+secret+"\n", 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", secret}} {
		git(t, a.outside, args...)
	}
	rel, err := filepath.Rel(a.repo, a.outside)
	if err != nil {
		t.Fatal(err)
	}
	rules := []string{"Bash(git:*)", "Bash(git config:*)", "Bash(git blame:*)", "Bash(find:*)", "Bash(ln:*)", "Bash(cp:*)", "Bash(tar:*)", "Bash(cat:*)"}
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", rules), 0o644)
	forms := make([]attackForm, 0, len(projectCommandReachForms)+2)
	for _, fm := range projectCommandReachForms {
		fm.Cmd, fm.Leak = strings.ReplaceAll(fm.Cmd, "{REL}", rel), secret
		forms = append(forms, fm)
	}
	r := a.runForms("pcr", forms, "--permission-mode", "default")
	expectBlocked(t, r)
	for _, c := range r.Results {
		if strings.Contains(c.Output, secret) {
			t.Errorf("LEAK: %s returned the outside secret\n  %s", c.Form.Name, c.describe())
		}
	}
	a.checkNoLeak(t, secret)
	inside := a.runForms("pci", []attackForm{
		{Name: "git-log-inside", Cmd: `git log --format=%s`},
		{Name: "find-exec-inside", Cmd: `find . -name hello.txt -exec cat {} +`},
		{Name: "ln-inside", Cmd: `ln -s hello.txt h2 && cat h2`},
	}, "--permission-mode", "default")
	for _, c := range inside.Results {
		if c.Decision != "allow" || c.Rule == "" {
			t.Errorf("a project rule no longer allows %s inside the workspace\n  %s", c.Form.Name, c.describe())
		}
	}
}

// projectCommandCodeForms run a command line hidden in an argument of a
// program a project rule allows (red team r18, third round): git's -c
// aliases and helpers, --upload-pack, tar's --to-command.
var projectCommandCodeForms = []attackForm{
	{Name: "git-c-alias", Cmd: `git -c alias.z='!cat {O}/secret.txt' z`},
	{Name: "git-c-alias-relative", Cmd: `git -c alias.z='!cat {REL}/secret.txt' z`},
	{Name: "git-c-fsmonitor", Cmd: `git -c core.fsmonitor='cat {O}/secret.txt >&2; false' status`},
	{Name: "git-upload-pack", Cmd: `git ls-remote --upload-pack='cat {O}/secret.txt >&2' .`},
	{Name: "tar-to-command", Cmd: `tar -cf t2.tar hello.txt && tar --to-command='cat {O}/secret.txt' -xf t2.tar`},
}

// TestAttackProjectRulesCodeInArguments: with a repository's rules allowing
// git and tar, each command line hidden in an argument asks (denied
// headless); none returns the secret outside the workspace.
func TestAttackProjectRulesCodeInArguments(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	secret := "RT-SECRET-CODE-ARG"
	mustWrite(t, filepath.Join(a.outside, "secret.txt"), secret+"\n", 0o644)
	rel, err := filepath.Rel(a.repo, a.outside)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", []string{"Bash(git:*)", "Bash(git ls-remote:*)", "Bash(tar:*)"}), 0o644)
	forms := make([]attackForm, 0, len(projectCommandCodeForms))
	for _, fm := range projectCommandCodeForms {
		fm.Cmd, fm.Leak = strings.ReplaceAll(fm.Cmd, "{REL}", rel), secret
		forms = append(forms, fm)
	}
	r := a.runForms("pcc", forms, "--permission-mode", "default")
	expectBlocked(t, r)
	for _, c := range r.Results {
		if strings.Contains(c.Output, secret) {
			t.Errorf("LEAK: %s returned the outside secret\n  %s", c.Form.Name, c.describe())
		}
	}
	a.checkNoLeak(t, secret)
}
