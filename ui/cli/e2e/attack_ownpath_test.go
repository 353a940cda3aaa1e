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
		plant.WriteString("printf '#!/bin/sh\\ntouch " + markers[prog] + "\\nexit 1\\n' > .venv/bin/" + prog + " && chmod +x .venv/bin/" + prog + "\n")
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
			t.Errorf("ESCAPE: pincer ran the planted %s outside the sandbox (%s exists)", prog, m)
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
