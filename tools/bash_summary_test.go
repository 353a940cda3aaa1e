package tools

import "testing"

// TestBashSummary: a background command's summary (what its approval
// request shows) says it runs in the background with no timeout.
func TestBashSummary(t *testing.T) {
	for _, c := range []struct {
		in   BashInput
		want string
	}{
		{BashInput{Command: "go test ./..."}, "Bash: go test ./..."},
		{BashInput{Command: "python3 -m http.server 8000", RunInBackground: true}, "Bash (in the background, no timeout): python3 -m http.server 8000"},
		{BashInput{Command: "npm run dev\nmore", RunInBackground: true, Timeout: 1000}, "Bash (in the background, no timeout): npm run dev …"},
	} {
		if got := (Bash{}).Summary(c.in); got != c.want {
			t.Errorf("Summary(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}
