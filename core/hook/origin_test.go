package hook

import (
	"context"
	"strings"
	"testing"

	"pincer/core/config"
)

// A plugin's hook (HookTable.Origin) gives its denial with its origin in the
// reason; the user's own hook does not.
func TestOriginInReason(t *testing.T) {
	proj := t.TempDir()
	for _, tc := range []struct{ origin, want string }{
		{"plugin:guard", "[plugin:guard] no rm"},
		{"", "no rm"},
	} {
		defs, errs := DefsFrom([]config.HookTable{{Path: "hooks.json", Format: config.JSON, Origin: tc.origin,
			Hooks: []config.HookEntry{{Event: "PreToolUse", Matcher: "Bash", Type: "command", Command: "echo 'no rm' >&2; exit 2"}}}})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if defs[PreToolUse][0].Origin != tc.origin {
			t.Fatalf("Def.Origin %q", defs[PreToolUse][0].Origin)
		}
		res := runner(t, proj, defs).PreToolUse(context.Background(), Common{}, "Bash", []byte(`{"command":"rm x"}`), "t1")
		if res.Decision != Deny || strings.TrimSpace(res.Reason) != tc.want {
			t.Errorf("origin %q: %v %q, want deny %q", tc.origin, res.Decision, res.Reason, tc.want)
		}
	}
}
