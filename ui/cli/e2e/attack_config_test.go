package e2e

// Issue 10, class 13: a broken config fails closed. A config or settings file that
// does not parse — holding a deny rule — stops `pincer run` with exit 2 and
// FILE:LINE before anything runs (no model call, no tool); a repeated
// --disallowed-tools (or --allowed-tools) flag adds to the earlier one.

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

func TestAttackBrokenConfigFailsClosed(t *testing.T) {
	t.Parallel()
	deny := `"Bash(touch:*)"`
	for _, tc := range []struct {
		name, file, content string
		user                bool // the file is under PINCER_HOME, not the workspace
		line                int  // the line the error must name (0: any)
	}{
		{"verbose-tru", ".pincer/config.toml", "verbose = tru\n[permissions]\ndeny = [" + deny + "]\n", false, 1},
		{"unclosed-table", ".pincer/config.toml", "[permissions]\ndeny = [" + deny + "]\n[sandbox\nnetwork = false\n", false, 3},
		{"unterminated-array", ".pincer/config.toml", "[permissions]\ndeny = [" + deny + ",\n\n", false, 0},
		{"duplicate-key", ".pincer/config.toml", "[permissions]\ndeny = [" + deny + "]\ndeny = [\"Bash(ls:*)\"]\n", false, 3},
		{"wrong-type", ".pincer/config.toml", "[permissions]\ndeny = " + deny + "\n", false, 0},
		{"settings-local-bare-word", ".pincer/settings.local.toml", "[permissions]\ndeny = [" + deny + "]\nallow = [Bash]\n", false, 3},
		{"user-config-typo", "config.toml", "[permissions]\ndeny = [" + deny + "]\nverbose = tru\n", true, 3},
		{"claude-settings-trailing-comma", ".claude/settings.json", "{\n  \"permissions\": {\"deny\": [" + deny + "]},\n}\n", false, 0},
		{"claude-local-missing-brace", ".claude/settings.local.json", "{\"permissions\": {\"deny\": [" + deny + "]}\n", false, 0},
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			dir := a.repo
			if tc.user {
				dir = a.home
			}
			mustWrite(t, filepath.Join(dir, tc.file), tc.content, 0o644)
			r := a.runForms("bc", []attackForm{{Name: "touch", Cmd: `touch {P}`}}, "--permission-mode", "bypassPermissions")
			c := r.Results[0]
			if exists(c.Marker) {
				t.Errorf("ESCAPE: the denied command ran with the broken file ignored\n  %s", c.describe())
			}
			if r.Code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", r.Code, r.Stderr)
			}
			pat := regexp.QuoteMeta(filepath.Base(tc.file)) + `:(\d+)`
			m := regexp.MustCompile(pat).FindStringSubmatch(r.Stderr)
			if m == nil {
				t.Errorf("stderr names no %s:LINE: %q", filepath.Base(tc.file), r.Stderr)
			} else if tc.line != 0 && m[1] != strconv.Itoa(tc.line) {
				t.Errorf("stderr names line %s, want %d: %q", m[1], tc.line, r.Stderr)
			}
			if n := len(a.fake.Requests()); n != 0 {
				t.Errorf("the model was called %d time(s) with a broken config", n)
			}
		})
	}
}

// TestAttackUserConfigTypoWarns: an unknown key in the user's own config.toml is
// not silently ignored.
func TestAttackUserConfigTypoWarns(t *testing.T) {
	t.Parallel()
	a := newAttackEnv(t)
	mustWrite(t, filepath.Join(a.home, "config.toml"), "[permissions]\ndenny = [\"Bash(touch:*)\"]\n", 0o644)
	a.fake.Push(openaitest.Reply{Text: "ok"})
	_, stderr, _ := a.runPincer(a.runArgs("hi")...)
	if !strings.Contains(stderr, "denny") || !strings.Contains(stderr, "config.toml") {
		t.Errorf("no warning naming the unknown key and the file: stderr %q", stderr)
	}
}

// TestAttackRepeatedRuleFlagsAddUp: two --disallowed-tools flags both deny; two
// --allowed-tools flags both allow.
func TestAttackRepeatedRuleFlagsAddUp(t *testing.T) {
	t.Parallel()
	t.Run("disallowed", func(t *testing.T) {
		t.Parallel()
		a := newAttackEnv(t)
		r := a.runForms("rf", []attackForm{
			{Name: "first-flag-touch", Cmd: `touch {P}`},
			{Name: "second-flag-mkdir", Cmd: `mkdir {P}`},
		}, "--permission-mode", "bypassPermissions", "--disallowed-tools", "Bash(touch:*)", "--disallowed-tools", "Bash(mkdir:*)")
		expectBlocked(t, r)
	})
	t.Run("allowed", func(t *testing.T) {
		t.Parallel()
		a := newAttackEnv(t)
		r := a.runForms("ra", []attackForm{
			{Name: "first-flag-touch", Cmd: `touch {W}/made_{ID}`},
			{Name: "second-flag-mkdir", Cmd: `mkdir {W}/made_{ID}`},
		}, "--allowed-tools", "Bash(touch:*)", "--allowed-tools", "Bash(mkdir:*)")
		expectAllowed(t, r, func(t *testing.T, c *callResult) {
			if !exists(filepath.Join(a.repo, "made_"+c.ID)) {
				t.Errorf("the allowed command made nothing\n  %s", c.describe())
			}
		})
	})
}

// TestAttackMalformedDenyFlag: a deny rule given on the command line that does not
// parse is not silently dropped: pincer stops (exit 2) or still denies.
func TestAttackMalformedDenyFlag(t *testing.T) {
	t.Parallel()
	for _, rule := range []string{"Bash(touch:*", "Bash(touch:*))", "Bash touch", "bash(touch:*)"} {
		rule := rule
		t.Run(rule, func(t *testing.T) {
			t.Parallel()
			a := newAttackEnv(t)
			r := a.runForms("md", []attackForm{{Name: "touch", Cmd: `touch {P}`}}, "--permission-mode", "bypassPermissions", "--disallowed-tools", rule)
			c := r.Results[0]
			if exists(c.Marker) {
				t.Errorf("ESCAPE: --disallowed-tools %q was dropped and the command ran (exit %d, stderr %q)\n  %s", rule, r.Code, r.Stderr, c.describe())
			}
			if r.Code != 2 && c.Decision != "deny" {
				t.Errorf("exit %d and decision %q: neither stopped nor denied\n  %s", r.Code, c.Decision, c.describe())
			}
		})
	}
}
