package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/sandbox"
)

// TestDoctorSandboxPolicy: doctor says whether the network is on, whether
// there is a PID namespace, what is hidden, and how each protected path of
// the workspace is kept.
func TestDoctorSandboxPolicy(t *testing.T) {
	ws := userConfig(t, "")
	_ = os.MkdirAll(filepath.Join(ws, ".git", "hooks"), 0o755)
	_ = os.WriteFile(filepath.Join(ws, ".git", "config"), nil, 0o644)
	t.Chdir(ws)
	var b strings.Builder
	doctorSandboxPolicy(&b, sandbox.Report{LandlockABI: 7, MountNamespace: true, NetNamespace: true, PIDNamespace: true})
	out := b.String()
	for _, want := range []string{"network: off", "processes: every process of a command ends with it", "hidden from commands:", os.Getenv("PINCER_HOME"),
		".git/config: present, mounted read-only", ".claude: absent, guarded by quarantine", "AGENTS.md: absent"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	ws = userConfig(t, "[sandbox]\nnetwork = true\n")
	t.Chdir(ws)
	b.Reset()
	doctorSandboxPolicy(&b, sandbox.Report{LandlockABI: 7})
	if out := b.String(); !strings.Contains(out, "network: on") || !strings.Contains(out, "processes: background processes can OUTLIVE") {
		t.Errorf("doctor with network = true and no namespaces:\n%s", out)
	}
}

// userConfig writes the user's config.toml (skipped when empty) under a fresh
// PINCER_HOME and returns a fresh workspace.
func userConfig(t *testing.T, user string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	if user != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return t.TempDir()
}
