package e2e

// Issue 11: the one config reader fails closed on files the old readers took in
// silence — a JSON key given twice (the second `deny` emptying the first), a
// project file that is a link to a file outside the project, a file too large to
// be configuration. `pincer run` exits 2 naming the file, nothing runs, the model
// is never called.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAttackConfigReaderFailsClosed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, a *attackEnv) string // returns the file the error must name
	}{
		{"json-duplicate-deny", func(t *testing.T, a *attackEnv) string {
			p := filepath.Join(a.repo, ".claude", "settings.json")
			mustWrite(t, p, "{\"permissions\": {\"deny\": [\"Bash(touch:*)\"],\n  \"deny\": []}}\n", 0o644)
			return p + ":2"
		}},
		{"project-config-links-outside", func(t *testing.T, a *attackEnv) string {
			out := filepath.Join(a.outside, "loose.toml")
			mustWrite(t, out, "[permissions]\nallow = [\"Bash\"]\n", 0o644)
			p := filepath.Join(a.repo, ".pincer", "config.toml")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(out, p); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, filepath.Join(a.home, "config.toml"), "[permissions]\ndeny = [\"Bash(touch:*)\"]\n", 0o644)
			return p
		}},
		{"huge-local-settings", func(t *testing.T, a *attackEnv) string {
			p := filepath.Join(a.repo, ".pincer", "settings.local.toml")
			mustWrite(t, p, "[permissions]\ndeny = [\"Bash(touch:*)\"]\n"+strings.Repeat("# pad\n", 1<<20), 0o644)
			return p + ":"
		}},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			want := tc.plant(t, a)
			r := a.runForms("cr", []attackForm{{Name: "touch", Cmd: `touch {P}`}}, "--permission-mode", "bypassPermissions")
			if c := r.Results[0]; exists(c.Marker) {
				t.Errorf("ESCAPE: the command ran with the file taken in\n  %s", c.describe())
			}
			if r.Code != 2 || !strings.Contains(r.Stderr, want) {
				t.Errorf("exit %d, want 2 naming %s; stderr %q", r.Code, want, r.Stderr)
			}
			if n := len(a.fake.Requests()); n != 0 {
				t.Errorf("the model was called %d time(s)", n)
			}
		})
	}
}
