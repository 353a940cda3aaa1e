package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// autoRunFiles are the other tools' auto-run files of ProtectedInWorkspace
// (red team r17 F10), as a file to seed: a directory entry gets a file in it.
var autoRunFiles = []string{
	".devcontainer/devcontainer.json", ".cursor/mcp.json", ".gemini/settings.json", ".codex/config.toml",
	".windsurf/rules.md", ".continue/config.json", ".opencode/plugin.js", "opencode.json", "opencode.jsonc",
	".crush.json", "crush.json", ".aider.conf.yml", ".zed/settings.json", ".nvim.lua", ".nvimrc", ".exrc",
	".vimrc", "mise.toml", ".mise.toml", "lefthook.yml", ".lefthook.yml", ".pre-commit-config.yaml",
	".husky/pre-commit", ".githooks/pre-commit",
	// the hook managers' other names (red team r18, third round)
	"mise.local.toml", ".mise.local.toml", ".mise/config.toml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml",
	".lefthook.toml", "lefthook.json", ".lefthook.json", "lefthook-local.yml", "lefthook-local.yaml", ".lefthook/pre-commit",
	// under .config/ and per environment (round 19)
	".config/lefthook.yml", ".config/lefthook.yaml", ".config/lefthook.toml", ".config/lefthook.json",
	".config/lefthook-local.yml", "lefthook.jsonc", ".lefthook-local.yml", "lefthook-local.toml", ".lefthook-local/pre-commit",
	".config/mise.toml", ".config/mise.staging.toml", ".config/mise/config.toml", ".config/mise/conf.d/tools.toml",
	".config/mise/config.ci.toml", "mise.staging.toml", ".mise.ci.toml", "mise/config.toml", "mise/config.dev.toml",
	// npm's and rustup's project files a hook outside the sandbox obeys (red team r24d F1, F4)
	".npmrc", "rust-toolchain", "rust-toolchain.toml", ".python-version", ".node-version", ".tool-versions",
	// git's alternates (red team r19 H3: a read-only git show then reads another repository's objects)
	".git/objects/info/alternates", ".git/objects/info/http-alternates",
}

// TestAttackAutoRunFiles (red team r17 F10): every other tool's auto-run
// file, present or missing, survives Bash forms (append, overwrite, cp, mv
// over, python, a symlink, sed -i, remove and re-create; half of them per
// file, each form on twelve files) byte for byte; one the command creates is quarantined. Seen failing before the
// entries were added (each form changed the file).
func TestAttackAutoRunFiles(t *testing.T) {
	pol := DefaultPolicy()
	pol.QuarantineDir = t.TempDir()
	e, root := newSandbox(t, pol)
	const orig = "orig\n"
	if err := os.WriteFile(filepath.Join(root, "evil"), []byte("PWNED-MARKER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, f := range autoRunFiles {
		if i%2 == 1 {
			continue // left missing: the quarantine's case
		}
		p := filepath.Join(root, f)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(orig), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	forms := []string{
		`mkdir -p $(dirname F) 2>/dev/null; echo PWNED-MARKER >> F`,
		`mkdir -p $(dirname F) 2>/dev/null; printf 'PWNED-MARKER\n' > F`,
		`mkdir -p $(dirname F) 2>/dev/null; cp evil F`,
		`mkdir -p $(dirname F) 2>/dev/null; cp evil t && mv -f t F`,
		`mkdir -p $(dirname F) 2>/dev/null; python3 -c 'open("F","w").write("PWNED-MARKER\n")'`,
		`mkdir -p $(dirname F) 2>/dev/null; ln -sf "$PWD/evil" F`,
		`sed -i 's/orig/PWNED-MARKER/' F`,
		`rm -rf F $(dirname F)/* 2>/dev/null; mkdir -p $(dirname F) && echo PWNED-MARKER > F`,
	}
	for i, f := range autoRunFiles {
		p := filepath.Join(root, f)
		for j, form := range forms {
			if (i+j)%2 == 1 {
				continue // half the forms per file, all of them over the list
			}
			res := sh(t, e, strings.ReplaceAll(form, "F", f))
			b, err := os.ReadFile(p)
			switch {
			case i%2 == 0 && string(b) != orig:
				t.Errorf("%s: %q changed it to %q (exit %d, %q)", f, form, b, res.ExitCode, res.Notice)
				_ = os.WriteFile(p, []byte(orig), 0o644)
			case i%2 == 1 && err == nil:
				t.Errorf("%s: %q created it: %q (exit %d, %q)", f, form, b, res.ExitCode, res.Notice)
				_ = os.RemoveAll(p)
			}
		}
	}
}
