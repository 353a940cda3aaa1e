package tui

import "testing"

// TestFitStatus: the whole line when it fits; otherwise the session ID, then
// the tokens, the cost and the context use go first; the approval notice and
// the turn state stay whole to the last.
func TestFitStatus(t *testing.T) {
	fields := []statusField{
		{"fake/m", prioModel}, {"default", prioMode}, {"abcd1234", prioSession},
		{"running 0m05s, 1 awaiting approval", prioState}, {"⏵ approval: y/s/a/n/N", prioApproval},
		{"↑0 ↓0 tokens", prioTokens}, {"cost ?", prioCost}, {"ctx 3%", prioCtx},
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{200, "fake/m · default · abcd1234 · running 0m05s, 1 awaiting approval · ⏵ approval: y/s/a/n/N · ↑0 ↓0 tokens · cost ? · ctx 3%"},
		{119, "fake/m · default · running 0m05s, 1 awaiting approval · ⏵ approval: y/s/a/n/N · ↑0 ↓0 tokens · cost ? · ctx 3%"},
		{79, "fake/m · default · running 0m05s, 1 awaiting approval · ⏵ approval: y/s/a/n/N"},
		{60, "running 0m05s, 1 awaiting approval · ⏵ approval: y/s/a/n/N"},
		{30, "⏵ approval: y/s/a/n/N"},
		{10, "⏵ approval: y/s/a/n/N"},
	} {
		if got := fitStatus(fields, tc.width); got != tc.want {
			t.Errorf("width %d:\n got %q\nwant %q", tc.width, got, tc.want)
		}
	}
}
