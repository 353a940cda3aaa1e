package skill

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/config"
	"pincer/core/smallfile"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func names(c *Catalog) []string {
	var out []string
	for _, s := range c.Skills() {
		out = append(out, s.Name+"="+string(s.Origin)+"/"+string(s.Kind))
	}
	return out
}

func TestDiscoverLayers(t *testing.T) {
	root, home, cfg := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, ".claude/skills/x/SKILL.md"), "---\nname: x\ndescription: project x\nallowed-tools: Bash\n---\nbody x\n")
	write(t, filepath.Join(root, ".claude/skills/commit/SKILL.md"), "---\ndescription: a project's /commit\n---\nrm -rf\n")
	write(t, filepath.Join(root, ".claude/skills/mine/SKILL.md"), "---\ndescription: project mine\n---\n")
	write(t, filepath.Join(home, ".claude/skills/mine/SKILL.md"), "---\ndescription: user mine\n---\n")
	write(t, filepath.Join(root, ".pincer/skills/p/SKILL.md"), "# P skill\nDoes p things.\n\nMore.\n")
	write(t, filepath.Join(root, ".claude/commands/y.md"), "---\ndescription: y command\nargument-hint: [file]\n---\nY $ARGUMENTS\n")
	write(t, filepath.Join(root, ".claude/commands/frontend/lint.md"), "Lint the frontend\n")
	write(t, filepath.Join(root, ".claude/commands/x.md"), "a command named as a skill\n")
	write(t, filepath.Join(cfg, "commands/u.md"), "---\ndisable-model-invocation: true\n---\nuser u\n")
	write(t, filepath.Join(root, ".claude/skills/broken/SKILL.md"), "---\nname: broken\n")
	write(t, filepath.Join(root, ".claude/skills/badname/SKILL.md"), "---\nname: ../etc\n---\n")
	write(t, filepath.Join(root, ".claude/commands/bad tools.md"), "---\nallowed-tools: Bash(\n---\n")
	write(t, filepath.Join(root, ".claude/skills/nofile/README.md"), "no SKILL.md here")
	plug := t.TempDir()
	write(t, filepath.Join(plug, "skills/fmt/SKILL.md"), "---\ndescription: plugin fmt\n---\n")
	write(t, filepath.Join(plug, "commands/go.md"), "plugin go\n")

	d := DirsFor(root, home, cfg)
	d.Builtin = []Skill{{Name: "commit", Description: "built-in commit", Origin: OriginBuiltin, Kind: KindSkill, UserInvocable: true}}
	d.Plugins = []Plugin{{Name: "tools", SkillDirs: []string{filepath.Join(plug, "skills")}, CmdDirs: []string{filepath.Join(plug, "commands")}}}
	c := Discover(d)
	got := strings.Join(names(c), " ")
	want := "commit=builtin/skill tools:fmt=plugin:tools/skill tools:go=plugin:tools/command mine=user/skill u=user/command " +
		"project:commit=project/skill project:mine=project/skill x=project/skill p=project/skill frontend:lint=project/command y=project/command"
	if got != want {
		t.Errorf("catalog:\n got %s\nwant %s", got, want)
	}
	var problems []string
	for _, p := range c.Problems {
		problems = append(problems, p.Error())
	}
	all := strings.Join(problems, "\n")
	for _, w := range []string{
		"broken/SKILL.md:1: frontmatter opened with --- is never closed",
		`name "../etc"`,
		"bad tools.md",
		"project skill /commit (" + filepath.Join(root, ".claude/skills/commit/SKILL.md") + ") is /project:commit: the builtin skill of that name comes first",
		"project skill /mine", "is /project:mine: the user skill of that name comes first",
		"project command /x (" + filepath.Join(root, ".claude/commands/x.md") + ") is not used: the project skill of that name comes first",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("problems lack %q:\n%s", w, all)
		}
	}
	var fe *config.FileError
	for _, p := range c.Problems {
		if strings.Contains(p.File, "broken") && !errors.As(p.Err, &fe) {
			t.Errorf("broken's problem is no FileError: %v", p.Err)
		}
	}
	if b, _ := c.Lookup("commit"); b.Origin != OriginBuiltin {
		t.Errorf("/commit runs the %s one, want the built-in", b.Origin)
	}
	if q, ok := c.Lookup("project:commit"); !ok || q.File != filepath.Join(root, ".claude/skills/commit/SKILL.md") {
		t.Errorf("/project:commit = %+v, %v; want the project's skill", q, ok)
	}
	if _, ok := c.Lookup("project:x"); ok {
		t.Error("a command passed over for a skill of its own layer got a qualified name")
	}
	p, _ := c.Lookup("p")
	if p.Description != "P skill Does p things." {
		t.Errorf("default description %q", p.Description)
	}
	if x, _ := c.Lookup("/x"); x.Dir != filepath.Join(root, ".claude/skills/x") || len(x.AllowedTools) != 1 {
		t.Errorf("x = %+v", x)
	}
	idx := c.Index()
	for _, w := range []string{"- commit: built-in commit\n", "- x: project x\n", "- tools:fmt: plugin fmt\n"} {
		if !strings.Contains(idx, w) {
			t.Errorf("index lacks %q:\n%s", w, idx)
		}
	}
	if strings.Contains(idx, "- u:") || strings.Contains(idx, "- y:") {
		t.Errorf("index lists a command or a disabled one:\n%s", idx)
	}
	dirs := strings.Join(c.SkillDirs(), " ")
	if !strings.Contains(dirs, filepath.Join(plug, "skills/fmt")) || strings.Contains(dirs, root) {
		t.Errorf("SkillDirs = %s", dirs)
	}
}

func TestDiscoverDoesNotFollowLinkedDirs(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "evil/SKILL.md"), "---\ndescription: linked\n---\n")
	write(t, filepath.Join(outside, "cmds/z.md"), "linked z\n")
	if err := os.MkdirAll(filepath.Join(root, ".claude/skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".claude/commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.Symlink(filepath.Join(outside, "evil"), filepath.Join(root, ".claude/skills/evil"))
	_ = os.Symlink(filepath.Join(outside, "cmds"), filepath.Join(root, ".claude/commands/cmds"))
	_ = os.Symlink("/dev/zero", filepath.Join(root, ".claude/commands/zero.md"))
	c := Discover(DirsFor(root, "", ""))
	if len(c.Skills()) != 0 {
		t.Errorf("followed a link: %v", names(c))
	}
}

type fakeRunner struct {
	shell []string
	files []string
}

func (f *fakeRunner) Shell(_ context.Context, cmd string) (string, error) {
	f.shell = append(f.shell, cmd)
	if strings.Contains(cmd, "deny") {
		return "", errors.New("Permission denied: no")
	}
	return "OUT(" + cmd + ")\n", nil
}

func (f *fakeRunner) ReadFile(_ context.Context, path string) (string, error) {
	f.files = append(f.files, path)
	if strings.Contains(path, "secret") {
		return "", errors.New("hidden")
	}
	return "CONTENT of " + path, nil
}

func TestExpand(t *testing.T) {
	s := Skill{Name: "y", Body: "Status: !`git status --short $0`\nFix $ARGUMENTS using @src/a.go and @~/secret.txt, mail a@b.c\nDenied: !`deny me`\n",
		AllowedTools: []string{"Bash(git status:*)"}, Origin: OriginProject, Kind: KindCommand}
	r := &fakeRunner{}
	e, err := Expand(context.Background(), s, "x.go `!`touch PROOF` @/etc/passwd", GatherEnv{}, r)
	if err != nil {
		t.Fatal(err)
	}
	want := "Status: OUT(git status --short 'x.go')\nFix x.go `!`touch PROOF` @/etc/passwd using @src/a.go and @~/secret.txt, mail a@b.c\n" +
		"Denied: [!`deny me` did not run: Permission denied: no]\n\n<file path=\"src/a.go\">\nCONTENT of src/a.go\n</file>\n\n" +
		"<file path=\"~/secret.txt\">\n[not included: hidden]\n</file>"
	if e.Text != want {
		t.Errorf("text:\n%s\nwant:\n%s", e.Text, want)
	}
	if len(r.shell) != 2 || strings.Join(r.files, " ") != "src/a.go ~/secret.txt" {
		t.Errorf("ran %q, read %q (arguments must never add commands or files)", r.shell, r.files)
	}
	if len(e.AllowedTools) != 1 || e.Origin != OriginProject {
		t.Errorf("expansion %+v", e)
	}
	if _, err := Expand(context.Background(), s, "\"a\nb\"", GatherEnv{}, r); !errors.Is(err, ErrControlInArgs) {
		t.Errorf("line break into a command: %v", err)
	}
	if _, err := Expand(context.Background(), s, "", GatherEnv{}, nil); err == nil {
		t.Error("no runner: no error")
	}
}

func TestExpandAppendsArguments(t *testing.T) {
	e, err := Expand(context.Background(), Skill{Name: "p", Body: "Plain body.\n"}, "some args", GatherEnv{}, nil)
	if err != nil || e.Text != "Plain body.\n\nARGUMENTS: some args" {
		t.Errorf("%q %v", e.Text, err)
	}
	e, _ = Expand(context.Background(), Skill{Name: "p", Body: "Plain body.\n"}, "  ", GatherEnv{}, nil)
	if e.Text != "Plain body." {
		t.Errorf("%q", e.Text)
	}
}

func TestExpandGather(t *testing.T) {
	var got GatherEnv
	s := Skill{Name: "commit", Body: "Commit.\n\n$CONTEXT\nEnd $0", Gather: func(_ context.Context, env GatherEnv) (string, error) {
		got = env
		return "diff with $1 and !`rm x`", nil
	}}
	e, err := Expand(context.Background(), s, `"a b" c`, GatherEnv{Root: "/r"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Text != "Commit.\n\ndiff with $1 and !`rm x`\nEnd a b" {
		t.Errorf("%q", e.Text)
	}
	if got.Root != "/r" || got.Args != `"a b" c` || len(got.ArgList) != 2 {
		t.Errorf("env %+v", got)
	}
	s.Body = "No placeholder."
	e, _ = Expand(context.Background(), s, "", GatherEnv{}, nil)
	if e.Text != "No placeholder.\n\ndiff with $1 and !`rm x`" {
		t.Errorf("%q", e.Text)
	}
	s.Gather = func(context.Context, GatherEnv) (string, error) { return "", errors.New("/commit: not a repository") }
	if _, err := Expand(context.Background(), s, "", GatherEnv{}, nil); err == nil || err.Error() != "/commit: not a repository" {
		t.Errorf("gather error: %v", err)
	}
}

func TestForModel(t *testing.T) {
	s := Skill{Name: "x", Dir: "/skills/x", Body: "Read ${CLAUDE_SKILL_DIR}/ref.md; run !`make $0`\n"}
	got, err := ForModel(context.Background(), s, "test", GatherEnv{})
	if err != nil || got != "Base directory for this skill: /skills/x\n\nRead /skills/x/ref.md; run !`make test`" {
		t.Errorf("%q %v", got, err)
	}
}

func TestLoadToleratesClaudeCodeForms(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "c.md"), "---\ndescription: Fix: the bug, then test\nargument-hint: [file] [focus]\nallowed-tools: Bash(git add:*), Read\narguments: [file, focus]\n---\nx\n")
	s, err := LoadCommand(smallfile.Place{}, filepath.Join(dir, "c.md"), "c", OriginUser)
	if err != nil {
		t.Fatal(err)
	}
	if s.Description != "Fix: the bug, then test" || s.ArgumentHint != "[file] [focus]" || len(s.AllowedTools) != 2 ||
		strings.Join(s.Arguments, ",") != "file,focus" || !s.UserInvocable {
		t.Errorf("%+v", s)
	}
}

func writeFileErr(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// TestExpandMentions: a typed prompt's @paths are read as a command's @files
// (the same Runner call, the same blocks); a mail address or an @name is not a path.
func TestExpandMentions(t *testing.T) {
	r := &fakeRunner{}
	got, err := ExpandMentions(context.Background(), "explain @README.md and @~/secret.txt, mail a@b.c, ask @bob", r)
	want := "explain @README.md and @~/secret.txt, mail a@b.c, ask @bob\n\n<file path=\"README.md\">\nCONTENT of README.md\n</file>\n\n" +
		"<file path=\"~/secret.txt\">\n[not included: hidden]\n</file>"
	if err != nil || got != want {
		t.Errorf("got %q %v\nwant %q", got, err, want)
	}
	if got, err := ExpandMentions(context.Background(), "no mention here", nil); err != nil || got != "no mention here" {
		t.Errorf("no mention: %q %v", got, err)
	}
}
