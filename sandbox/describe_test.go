package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDescribeProtected(t *testing.T) {
	root := t.TempDir()
	_ = os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755)
	_ = os.WriteFile(filepath.Join(root, ".git", "config"), nil, 0o644)
	_ = os.WriteFile(filepath.Join(root, "CLAUDE.md"), nil, 0o644)
	_ = os.Symlink("CLAUDE.md", filepath.Join(root, "AGENTS.md"))
	got := strings.Join(DescribeProtected(root, nil, Report{MountNamespace: true, LandlockABI: 7}), "\n")
	for _, want := range []string{
		".git/config: present, mounted read-only",
		".git/hooks: present, mounted read-only",
		".git/info: absent, created empty",
		".claude: absent, guarded by quarantine",
		"AGENTS.md: a symlink",
		".git/modules/**/config: none",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	got = strings.Join(DescribeProtected(root, nil, Report{LandlockABI: 7}), "\n")
	if !strings.Contains(got, ".git/config: present, kept read-only by Landlock") {
		t.Errorf("carve-out:\n%s", got)
	}
}
