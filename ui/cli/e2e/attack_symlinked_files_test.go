package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// Symlinked repository files (issue 13 red team, F1-F3): a skill, a command
// or an instruction file that is a symbolic link to a secret (~/.ssh/id_rsa,
// ~/.aws/credentials, /proc/self/environ), to a file outside the workspace or
// to a file that blocks (a FIFO, as /proc/kmsg) is refused with a warning
// naming it — never sent to the model, never a hang. Every case runs the real
// binary against the scripted provider with a fake $HOME holding marker
// secrets and PINCER_TEST_SECRET in pincer's environment, and asserts that
// no request the provider received holds a marker.

const (
	markSSH  = "PROOF-SSH-KEY-7d1e"
	markAWS  = "PROOF-AWS-CREDENTIALS-93b2"
	markEnv  = "PROOF-ENV-SECRET-41c8"
	markOut  = "PROOF-OUTSIDE-FILE-c05a"
	markCtrl = "CONTROL-REGULAR-FILE-5e77"
)

// secretsEnv is an env whose pincer runs with HOME a fake home holding
// .ssh/id_rsa and .aws/credentials markers, PINCER_TEST_SECRET set, and an
// outside directory with a marker file and a FIFO no one ever writes.
type secretsEnv struct {
	*env
	fakeHome, outside string
}

func newSecretsEnv(t *testing.T) *secretsEnv {
	t.Helper()
	s := &secretsEnv{env: newEnv(t), fakeHome: t.TempDir(), outside: t.TempDir()}
	for rel, body := range map[string]string{
		".ssh/id_rsa":      "-----BEGIN OPENSSH PRIVATE KEY-----\n" + markSSH + "\n",
		".ssh/SKILL.md":    "---\nname: ssh\ndescription: " + markSSH + "\n---\n" + markSSH + "\n",
		".aws/credentials": "[default]\naws_secret_access_key = " + markAWS + "\n",
	} {
		p := filepath.Join(s.fakeHome, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(s.outside, "notes.md"), []byte("---\ndescription: "+markOut+"\n---\n"+markOut+"\n"), 0o644)
	os.MkdirAll(filepath.Join(s.outside, "skills", "o"), 0o755)
	os.WriteFile(filepath.Join(s.outside, "skills", "o", "SKILL.md"), []byte("---\nname: o\ndescription: "+markOut+"\n---\n"+markOut+"\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(s.outside, "kmsg"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(s.repo, "fifo.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// link makes the repository path rel a symbolic link to target (made
// relative to rel's directory when relative is set).
func (s *secretsEnv) link(rel, target string, relative bool) string {
	s.t.Helper()
	p := filepath.Join(s.repo, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if relative {
		r, err := filepath.Rel(filepath.Dir(p), target)
		if err != nil {
			s.t.Fatal(err)
		}
		target = r
	}
	if err := os.Symlink(target, p); err != nil {
		s.t.Fatal(err)
	}
	return p
}

// runBounded runs pincer run PROMPT with HOME the fake home and the secret in
// its environment; a run that has not ended in 60s is killed and fails the
// test (the hang of F3).
// replies are the provider's answers (default: a Skill tool call loading the
// skill "s", then a text).
func (s *secretsEnv) runBounded(prompt string, replies ...openaitest.Reply) (stdout, stderr string, code int) {
	s.t.Helper()
	if len(replies) == 0 {
		replies = []openaitest.Reply{{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Skill", Args: `{"skill":"s"}`}}}, {Text: "done"}}
	}
	s.fake.Push(append(replies, openaitest.Reply{Text: "done"})...)
	cmd := s.command(s.runArgs("--no-daemon", prompt)...)
	cmd.Env = append(cmd.Env, "HOME="+s.fakeHome, "PINCER_TEST_SECRET="+markEnv, "XDG_CONFIG_HOME=", "XDG_DATA_HOME=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = strings.NewReader("")
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		s.t.Fatalf("pincer run %q hung (killed after 60s); stderr:\n%s", prompt, errb.String())
	}
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// sent is every request the provider received, as JSON text.
func (s *secretsEnv) sent() string {
	b, err := json.Marshal(s.fake.Requests())
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

func TestAttackSymlinkedRepoFilesReachNoModel(t *testing.T) {
	placements := []struct {
		name, rel, prompt string
	}{
		{"project skill", ".claude/skills/s/SKILL.md", "hi"},
		{"pincer skill", ".pincer/skills/s/SKILL.md", "hi"},
		{"project command", ".claude/commands/c.md", "/c"},
		{"AGENTS.md", "AGENTS.md", "hi"},
		{"CLAUDE.md", "CLAUDE.md", "hi"},
		{"CLAUDE.local.md", "CLAUDE.local.md", "hi"},
	}
	targets := []struct {
		name     string
		target   func(s *secretsEnv) string
		relative bool
		chain    bool
	}{
		{"ssh key absolute", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".ssh/id_rsa") }, false, false},
		{"ssh key relative", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".ssh/id_rsa") }, true, false},
		{"aws credentials", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".aws/credentials") }, false, false},
		{"proc self environ", func(*secretsEnv) string { return "/proc/self/environ" }, false, false},
		{"file outside the workspace", func(s *secretsEnv) string { return filepath.Join(s.outside, "notes.md") }, false, false},
		{"link chain to the key", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".ssh/id_rsa") }, false, true},
		{"blocking file outside", func(s *secretsEnv) string { return filepath.Join(s.outside, "kmsg") }, false, false},
		{"blocking file inside", func(s *secretsEnv) string { return filepath.Join(s.repo, "fifo.md") }, true, false},
	}
	for _, pl := range placements {
		for _, tg := range targets {
			t.Run(pl.name+"/"+tg.name, func(t *testing.T) {
				s := newSecretsEnv(t)
				target := tg.target(s)
				if tg.chain { // repo/hop1 -> repo/hop2 -> target: each hop inside, the end outside
					s.link("hop2", target, false)
					target = s.link("hop1", filepath.Join(s.repo, "hop2"), true)
				}
				p := s.link(pl.rel, target, tg.relative)
				_, stderr, _ := s.runBounded(pl.prompt)
				sent := s.sent()
				for _, m := range []string{markSSH, markAWS, markEnv, markOut} {
					if strings.Contains(sent, m) {
						t.Errorf("the model received %s through %s -> %s", m, pl.rel, target)
					}
				}
				if !strings.Contains(stderr, p+":") || !strings.Contains(stderr, "not read") {
					t.Errorf("no warning naming %s; stderr:\n%s", p, stderr)
				}
			})
		}
		t.Run(pl.name+"/control", func(t *testing.T) { // the same placement as a plain file reaches the model
			s := newSecretsEnv(t)
			s.mkfile(pl.rel, "---\ndescription: "+markCtrl+"\n---\n"+markCtrl+"\n")
			_, stderr, code := s.runBounded(pl.prompt)
			if code != 0 || !strings.Contains(s.sent(), markCtrl) {
				t.Errorf("control %s: exit %d, the model never saw it; stderr:\n%s", pl.rel, code, stderr)
			}
		})
	}
}

// TestAttackSymlinkedSkillDirectories: a skill directory (or the skills
// directory, or .claude itself) that is a link out of the workspace — to
// ~/.ssh holding a SKILL.md, to a directory elsewhere — contributes nothing.
func TestAttackSymlinkedSkillDirectories(t *testing.T) {
	cases := []struct {
		name, rel string
		target    func(s *secretsEnv) string
	}{
		{"skill dir to ~/.ssh", ".claude/skills/x", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".ssh") }},
		{"skills dir outside", ".claude/skills", func(s *secretsEnv) string { return filepath.Join(s.outside, "skills") }},
		{"pincer skills dir outside", ".pincer/skills", func(s *secretsEnv) string { return filepath.Join(s.outside, "skills") }},
		{".claude outside", ".claude", func(s *secretsEnv) string { return s.outside }},
		{"commands dir to ~/.ssh", ".claude/commands", func(s *secretsEnv) string { return filepath.Join(s.fakeHome, ".ssh") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSecretsEnv(t)
			s.link(c.rel, c.target(s), false)
			s.runBounded("hi")
			_, _, _ = s.runBounded("/SKILL")
			sent := s.sent()
			for _, m := range []string{markSSH, markAWS, markEnv, markOut} {
				if strings.Contains(sent, m) {
					t.Errorf("the model received %s through %s", m, c.rel)
				}
			}
		})
	}
}

// TestAttackUserSkillLinks: the user's own skills may link elsewhere (a skill
// kept in a dotfiles checkout) but never to a credentials location or /proc.
func TestAttackUserSkillLinks(t *testing.T) {
	s := newSecretsEnv(t)
	mk := func(name, target string) {
		p := filepath.Join(s.fakeHome, ".claude", "skills", name, "SKILL.md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	mk("key", filepath.Join(s.fakeHome, ".ssh/id_rsa"))
	mk("environ", "/proc/self/environ")
	mk("kmsg", filepath.Join(s.outside, "kmsg"))
	mk("dotfiles", filepath.Join(s.outside, "notes.md")) // allowed: the user's own link
	// files beside a user skill (Read is allowed there without asking) that
	// link to the key and to pincer's environment: the Skill's reads obey the
	// same rules
	okDir := filepath.Join(s.fakeHome, ".claude", "skills", "ok")
	os.MkdirAll(okDir, 0o755)
	os.WriteFile(filepath.Join(okDir, "SKILL.md"), []byte("---\nname: ok\ndescription: fine\n---\nRead env and key beside this file.\n"), 0o644)
	os.Symlink("/proc/self/environ", filepath.Join(okDir, "env"))
	os.Symlink(filepath.Join(s.fakeHome, ".ssh/id_rsa"), filepath.Join(okDir, "key"))
	_, stderr, _ := s.runBounded("hi",
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "s1", Name: "Skill", Args: `{"skill":"ok"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{
			{ID: "r1", Name: "Read", Args: `{"file_path":"` + filepath.Join(okDir, "env") + `"}`},
			{ID: "r2", Name: "Read", Args: `{"file_path":"` + filepath.Join(okDir, "key") + `"}`}}})
	sent := s.sent()
	for _, m := range []string{markSSH, markEnv} {
		if strings.Contains(sent, m) {
			t.Errorf("the model received %s through a user skill", m)
		}
	}
	if !strings.Contains(sent, markOut) {
		t.Errorf("the user's skill linked to a file elsewhere was not offered; stderr:\n%s", stderr)
	}
	for _, n := range []string{"key", "environ", "kmsg"} {
		if !strings.Contains(stderr, filepath.Join(s.fakeHome, ".claude", "skills", n, "SKILL.md")+":") {
			t.Errorf("no warning naming the %s skill; stderr:\n%s", n, stderr)
		}
	}
}
