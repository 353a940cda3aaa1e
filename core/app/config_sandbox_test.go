package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"pincer/core/config"
	"pincer/sandbox"
	"slices"
	"strings"
	"testing"
)

// writeConfigs writes the user's config.toml (under a fresh PINCER_HOME) and
// the project's .pincer/config.toml (in a fresh workspace), each skipped when
// empty, and returns the workspace.
func writeConfigs(t *testing.T, user, project string) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("PINCER_HOME", home)
	ws := t.TempDir()
	if user != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if project != "" {
		_ = os.MkdirAll(filepath.Join(ws, ".pincer"), 0o755)
		if err := os.WriteFile(filepath.Join(ws, ".pincer", "config.toml"), []byte(project), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// sandboxPolicyFor is sandboxPolicy of workspace's files as read now, its
// problems written to w one line each (fatal ones first).
func sandboxPolicyFor(workspace string, flags sandboxFlags, w io.Writer) *sandbox.Policy {
	src := config.Read(config.PathsFrom(os.Getenv), workspace)
	var report configReport
	report.add(src.Errors())
	p := sandboxPolicy(src, flags, &report)
	for _, line := range append(report.fatal, report.warnings...) {
		fmt.Fprintf(w, "pincer: warning: %s\n", line)
	}
	return p
}

func TestSandboxPolicyDefaultsAndUser(t *testing.T) {
	ws := writeConfigs(t, "", "")
	var warn bytes.Buffer
	p := sandboxPolicyFor(ws, sandboxFlags{}, &warn)
	if p == nil || !p.Enabled || p.Network || warn.Len() > 0 {
		t.Fatalf("default policy: %+v, warnings %q", p, warn.String())
	}
	if p := sandboxPolicyFor(ws, sandboxFlags{AllowNetwork: true}, &warn); p == nil || !p.Network {
		t.Fatalf("--allow-network: %+v", p)
	}
	if p := sandboxPolicyFor(ws, sandboxFlags{NoSandbox: true}, &warn); p != nil {
		t.Fatalf("--no-sandbox: %+v", p)
	}
	ws = writeConfigs(t, "[sandbox]\nnetwork = true\nenv_allow = [\"MY_TOOL\"]\nwritable_roots = [\"/opt/x\"]\n", "")
	p = sandboxPolicyFor(ws, sandboxFlags{}, &warn)
	if p == nil || !p.Network || !slices.Contains(p.EnvAllow, "MY_TOOL") || !slices.Contains(p.WritableRoots, "/opt/x") {
		t.Fatalf("the user's config loosens: %+v", p)
	}
	ws = writeConfigs(t, "[sandbox]\nenabled = false\n", "")
	if p := sandboxPolicyFor(ws, sandboxFlags{}, &warn); p != nil {
		t.Fatalf("the user's enabled = false: %+v", p)
	}
}

// TestProjectConfigCannotLoosen: every way a project file could loosen the
// sandbox is ignored, with a FILE:LINE warning; tightening applies.
func TestProjectConfigCannotLoosen(t *testing.T) {
	loosen := []struct{ project, key string }{
		{"[sandbox]\nenabled = false\n", "enabled"},
		{"[sandbox]\nnetwork = true\n", "network"},
		{"[sandbox]\nenv_allow = [\"*\"]\n", "env_allow"},
		{"[sandbox]\nenv_allow = [\"OPENAI_API_KEY\"]\n", "env_allow"},
		{"[sandbox]\nwritable_roots = [\"/\"]\n", "writable_roots"},
		{"[sandbox]\nwritable_roots = [\"~/.ssh\"]\n", "writable_roots"},
		{"[sandbox]\nrequire_landlock = false\n", "require_landlock"},
		{"# comment\n\n[sandbox]\n  network   =   true # on\n", "network"},
		{"sandbox.network = true\n", "network"},
		{"[sandbox]\n\"enabled\" = false\n", "enabled"},
		{"sandbox = { enabled = false, network = true }\n", "enabled"},
	}
	for _, tt := range loosen {
		ws := writeConfigs(t, "", tt.project)
		var warn bytes.Buffer
		p := sandboxPolicyFor(ws, sandboxFlags{}, &warn)
		if p == nil || !p.Enabled || p.Network || len(p.EnvAllow) > 0 || len(p.WritableRoots) > 0 {
			t.Errorf("project %q loosened the policy: %+v", tt.project, p)
			continue
		}
		w := warn.String()
		if !strings.Contains(w, filepath.Join(ws, ".pincer", "config.toml")) || !strings.Contains(w, "[sandbox] "+tt.key+" ignored") {
			t.Errorf("project %q: warning %q", tt.project, w)
		}
		if !strings.Contains(tt.project, "{") {
			lines := strings.Split(tt.project, "\n")
			want := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, tt.key) }) + 1
			if !strings.Contains(w, "config.toml:"+string(rune('0'+want))+":") {
				t.Errorf("project %q: warning %q lacks line %d", tt.project, w, want)
			}
		}
	}
	// The user's loosening survives a project that tries to loosen too, and a
	// project's tightening wins over the user's loosening.
	ws := writeConfigs(t, "[sandbox]\nnetwork = true\n", "[sandbox]\nnetwork = false\nrequire_landlock = true\nenabled = true\n")
	var warn bytes.Buffer
	p := sandboxPolicyFor(ws, sandboxFlags{}, &warn)
	if p == nil || p.Network || !p.RequireLandlock || warn.Len() > 0 {
		t.Fatalf("tightening: %+v, %q", p, warn.String())
	}
	// A flag still loosens over the project.
	if p := sandboxPolicyFor(ws, sandboxFlags{AllowNetwork: true}, &warn); p == nil || !p.Network {
		t.Fatalf("--allow-network under a project network = false: %+v", p)
	}
	// The user's enabled = false is not undone by the project's silence, but a
	// project's enabled = true re-enables it (tightening).
	ws = writeConfigs(t, "[sandbox]\nenabled = false\n", "[sandbox]\nenabled = true\n")
	if p := sandboxPolicyFor(ws, sandboxFlags{}, &warn); p == nil {
		t.Fatal("a project's enabled = true did not apply")
	}
}
