package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestAgentSockets(t *testing.T) {
	tmp := t.TempDir()
	own := filepath.Join(tmp, "ssh-abc123")
	if err := os.Mkdir(own, 0o700); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"SSH_AUTH_SOCK":   filepath.Join(own, "agent.42"),
		"TMPDIR":          tmp,
		"XDG_RUNTIME_DIR": "/run/user/1000",
	}
	got := AgentSockets(func(k string) string { return env[k] })
	for _, want := range []string{own, "/run/user/1000/gnupg", "/run/user/1000/keyring"} {
		if !slices.Contains(got, want) {
			t.Errorf("AgentSockets = %v, want %s in it", got, want)
		}
	}
	// A socket that is not in an agent directory of its own is hidden alone.
	env["SSH_AUTH_SOCK"] = "/run/user/1000/openssh_agent"
	if got := AgentSockets(func(k string) string { return env[k] }); !slices.Contains(got, "/run/user/1000/openssh_agent") {
		t.Errorf("AgentSockets = %v, want the socket itself", got)
	}
	// Relative values are ignored.
	env = map[string]string{"SSH_AUTH_SOCK": "agent.sock", "TMPDIR": "rel"}
	for _, p := range AgentSockets(func(k string) string { return env[k] }) {
		if !filepath.IsAbs(p) {
			t.Errorf("relative path %q", p)
		}
	}
}
