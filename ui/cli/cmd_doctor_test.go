package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pincer/core/checkpoint"
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
	doctorSandboxPolicy(&b, sandbox.Report{LandlockABI: 7, MountNamespace: true, NetNamespace: true, PIDNamespace: true}, true)
	out := b.String()
	for _, want := range []string{"network: off", "processes: every process of a command ends with it", "hidden from commands:", os.Getenv("PINCER_HOME"),
		".git/config: present, mounted read-only", ".claude: absent, guarded by quarantine", "AGENTS.md: absent"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	b.Reset() // without --verbose the absent, quarantined ones are a count (new user r19: ~60 lines)
	doctorSandboxPolicy(&b, sandbox.Report{LandlockABI: 7, MountNamespace: true, NetNamespace: true, PIDNamespace: true}, false)
	out = b.String()
	if !strings.Contains(out, ".git/config: present, mounted read-only") || strings.Contains(out, ".claude: absent") ||
		!strings.Contains(out, "more paths, absent here and guarded by quarantine") {
		t.Errorf("doctor without --verbose:\n%s", out)
	}
	ws = userConfig(t, "[sandbox]\nnetwork = true\n")
	t.Chdir(ws)
	b.Reset()
	doctorSandboxPolicy(&b, sandbox.Report{LandlockABI: 7}, true)
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

// TestDoctorCheckpoints: doctor says the blobs, stored bytes and checkpoints,
// and each session's share, the largest first, at most doctorSessionsShown.
func TestDoctorCheckpoints(t *testing.T) {
	u := checkpoint.Usage{Blobs: 3, Bytes: 3 << 20, Checkpoints: 5, Sessions: map[string]checkpoint.SessionUsage{
		"small": {Checkpoints: 1, Bytes: 100}, "big": {Checkpoints: 4, Bytes: 2 << 20}}}
	var b strings.Builder
	doctorCheckpoints(&b, u, nil)
	out := b.String()
	if !strings.Contains(out, "3 blobs, 3.0 MiB stored; 5 checkpoints in 2 sessions") ||
		!strings.Contains(out, "big: 4 checkpoints, 2.0 MiB\n  small: 1 checkpoints, 100 B") {
		t.Errorf("doctor:\n%s", out)
	}
	for i := range 12 {
		u.Sessions[fmt.Sprintf("s%02d", i)] = checkpoint.SessionUsage{Checkpoints: 1, Bytes: 10}
	}
	b.Reset()
	doctorCheckpoints(&b, u, nil)
	if out := b.String(); !strings.Contains(out, "and 4 more sessions") || strings.Contains(out, "s11") {
		t.Errorf("doctor with 14 sessions:\n%s", out)
	}
	b.Reset()
	doctorCheckpoints(&b, checkpoint.Usage{}, errors.New("store locked"))
	if out := b.String(); !strings.Contains(out, "unknown: store locked") {
		t.Errorf("doctor on an error:\n%s", out)
	}
}
