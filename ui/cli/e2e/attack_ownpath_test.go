package e2e

// Red team r24 F1: with a directory in the workspace on the person's PATH (an
// activated .venv/bin), a command the repository's own rule allows plants
// `git` and `rg` there; pincer then ran them itself, outside the sandbox:
// git for the next model call's prompt, rg for the next Grep. Commands still
// get the whole PATH.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestAttackPlantedOwnPrograms(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	bin := filepath.Join(a.repo, ".venv", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	a.extraEnv = append(a.extraEnv, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var plant strings.Builder
	markers := map[string]string{}
	for _, prog := range []string{"git", "rg", "go", "bash"} {
		markers[prog] = filepath.Join(a.outside, "PROOF_ran_"+prog)
		mustWrite(t, filepath.Join(a.repo, "evil-"+prog), "#!/bin/sh\n{ tr '\\0' ' ' < /proc/$PPID/cmdline; echo \" <- $*\"; } >> "+markers[prog]+"\nexit 1\n", 0o755)
		plant.WriteString("cp evil-" + prog + " .venv/bin/" + prog + " && chmod +x .venv/bin/" + prog + "\n")
	}
	mustWrite(t, filepath.Join(a.repo, "plant.sh"), plant.String(), 0o644)
	mustWrite(t, filepath.Join(a.repo, "notes.txt"), "needle\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", []string{"Bash(sh plant.sh)", "Bash(command -v git)"}), 0o644)
	pre, _ := a.calls("pl", []attackForm{{Name: "plant", Cmd: "sh plant.sh"}})
	r := a.runFormsAfter("op", pre, []attackForm{
		{Name: "grep", Tool: "Grep", Args: `{"pattern":"needle","output_mode":"content"}`},
		{Name: "commands-see-the-venv", Cmd: "command -v git"},
	}, "--permission-mode", "default")
	for prog := range markers {
		if _, err := os.Stat(filepath.Join(bin, prog)); err != nil {
			t.Fatalf("HARNESS: plant.sh did not plant %s: %v\n%s", prog, err, r.Stdout)
		}
	}
	for prog, m := range markers {
		if exists(m) {
			b, _ := os.ReadFile(m)
			t.Errorf("ESCAPE: pincer ran the planted %s outside the sandbox (%s exists): %s", prog, m, b)
		}
	}
	if c := r.Results[0]; !strings.Contains(c.Output, "needle") {
		t.Errorf("Grep found nothing: %s", c.describe())
	}
	if c := r.Results[1]; !strings.Contains(c.Output, filepath.Join(bin, "git")) {
		t.Errorf("a command no longer gets the person's PATH: %s", c.describe())
	}
	if !strings.Contains(r.Stderr, "pincer runs none of its own programs") || !strings.Contains(r.Stderr, bin) {
		t.Errorf("no warning names the PATH entry left out:\n%s", r.Stderr)
	}
}

// TestAttackPlantedOwnProgramsElsewhere (red team r24b F1, F3, F4): a git or
// go planted by a repository-allowed command in a PATH directory under the
// XDG cache dir or under one of the person's writable_roots runs neither in
// the next `pincer run` (go env, the trusted-code scan's git) nor in
// `pincer worktrees` and `pincer doctor`, which do not go through a run.
func TestAttackPlantedOwnProgramsElsewhere(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	cache := filepath.Join(t.TempDir(), "cache")
	cacheBin := filepath.Join(cache, "rebar3", "bin") // as rebar3 puts its own on PATH
	root := filepath.Join(t.TempDir(), "tools")
	rootBin := filepath.Join(root, "bin")
	for _, d := range []string{cacheBin, rootBin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(a.home, "config.toml"), "[sandbox]\nwritable_roots = [\""+root+"\"]\n", 0o644)
	a.extraEnv = append(a.extraEnv, "XDG_CACHE_HOME="+cache,
		"PATH="+cacheBin+string(os.PathListSeparator)+rootBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	markers := map[string]string{}
	var plant strings.Builder
	for _, p := range []struct{ dir, prog string }{{cacheBin, "go"}, {cacheBin, "git"}, {rootBin, "git"}, {rootBin, "go"}} {
		m := filepath.Join(a.outside, "PROOF_"+filepath.Base(filepath.Dir(p.dir))+"_"+p.prog)
		markers[p.dir+"/"+p.prog] = m
		plant.WriteString("printf '#!/bin/sh\\ntouch " + m + "\\nexit 1\\n' > " + filepath.Join(p.dir, p.prog) + " && chmod +x " + filepath.Join(p.dir, p.prog) + "\n")
	}
	mustWrite(t, filepath.Join(a.repo, "plant.sh"), plant.String(), 0o644)
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", []string{"Bash(sh plant.sh)"}), 0o644)
	r := a.runForms("pe", []attackForm{{Name: "plant", Cmd: "sh plant.sh"}}, "--permission-mode", "default")
	for p := range markers {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("HARNESS: plant.sh did not plant %s: %v\n%s", p, err, r.Stdout)
		}
	}
	a.fake.Push(openaitest.Reply{Text: "done"})
	a.runPincer(a.runArgs("hello")...) // the next start: go env, the trusted-code scan
	a.runPincer("worktrees", "list")
	a.runPincer("doctor")
	for p, m := range markers {
		if exists(m) {
			t.Errorf("ESCAPE: pincer ran the planted %s outside the sandbox", p)
		}
	}
}
