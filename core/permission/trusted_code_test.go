package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAttackTrustedCodeWritesAsk (brief r19 D1, D2): a write to a path of
// Input.TrustedCode — a file below core.hooksPath's directory, a script a
// trusted hook runs — asks in every mode (dontAsk denies), bypassPermissions
// included, from the file tools (Write, Edit, MultiEdit, apply_patch list
// their paths) and from Bash (redirects, cp, mv over, ln -sf, rm, sed -i, git
// checkout, through a symlink or `..`); files beside them do not. Without
// TrustedCode each form was allowed in bypassPermissions.
func TestAttackTrustedCodeWritesAsk(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"tools/hooks", "scripts"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hook := filepath.Join(ws, "tools", "hooks", "pre-commit")
	script := filepath.Join(ws, "scripts", "check.sh")
	for _, p := range []string{hook, script} {
		if err := os.WriteFile(p, []byte("true\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(ws, "scripts"), filepath.Join(ws, "s")); err != nil {
		t.Fatal(err)
	}
	tcs := []TrustedCode{{Path: filepath.Join(ws, "tools", "hooks"), Why: "core.hooksPath names it"},
		{Path: script, Why: "a hook of your configuration runs it"}}
	var calls []Input
	for _, tool := range []string{"Write", "Edit", "MultiEdit", "apply_patch"} {
		for _, p := range []string{hook, script, filepath.Join(ws, "tools", "hooks", "post-merge"), filepath.Join(ws, "s", "check.sh"),
			filepath.Join(ws, "scripts", "..", "scripts", "check.sh")} {
			calls = append(calls, Input{Tool: tool, Kind: KindEdit, Paths: []string{p}})
		}
	}
	for _, c := range []string{
		"echo 'touch $MARKER' > tools/hooks/pre-commit", "echo x >> scripts/check.sh", "cp evil tools/hooks/pre-commit",
		"mv evil scripts/check.sh", "ln -sf ../evil tools/hooks/pre-commit", "rm scripts/check.sh", "sed -i s/a/b/ scripts/check.sh",
		"git checkout bad -- scripts/check.sh", "tee s/check.sh < evil", "echo x > tools/hooks/../hooks/commit-msg",
	} {
		calls = append(calls, Input{Tool: "Bash", Kind: KindExecute, Command: c})
	}
	for _, in := range calls {
		in.Workspace = ws
		if d := Evaluate(ModeBypass, RuleSet{}, in); d.Behavior != Allow {
			t.Errorf("without TrustedCode %s %s%s: %s (%s); want allow (the test proves nothing)", in.Tool, in.Paths, in.Command, d.Behavior, d.Reason)
		}
		in.TrustedCode = tcs
		for _, mode := range []Mode{ModeDefault, ModeAcceptEdits, ModeBypass, ModeDontAsk} {
			d := Evaluate(mode, RuleSet{Allow: []Rule{{Tool: in.Tool}}}, in)
			want := Ask
			if mode == ModeDontAsk {
				want = Deny
			}
			if d.Behavior != want || mode != ModeDontAsk && d.By != "protected" {
				t.Errorf("%s %s %s%s: %s by %q (%s), want %s by protected", mode, in.Tool, in.Paths, in.Command, d.Behavior, d.By, d.Reason, want)
			}
		}
	}
	beside := Input{Tool: "Write", Kind: KindEdit, Paths: []string{filepath.Join(ws, "scripts", "other.sh")}, Workspace: ws, TrustedCode: tcs}
	if d := Evaluate(ModeAcceptEdits, RuleSet{}, beside); d.Behavior != Allow {
		t.Errorf("a file beside them: %s (%s), want allow", d.Behavior, d.Reason)
	}
}
