package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRunJSONFailureBeforeTheTurn: a `pincer run --output-format json` (or
// stream-json) that stops before its turn — no session to continue, a bad flag
// value after the format — still prints one result object with isError, so a
// script reading stdout always gets one; text prints nothing there.
func TestRunJSONFailureBeforeTheTurn(t *testing.T) {
	t.Setenv("PINCER_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		args []string
		code int
		why  string
	}{
		{[]string{"run", "--output-format", "json", "--continue", "--model", "local/m", "--base-url", "http://127.0.0.1:9/v1", "hi"}, 1, "no session to continue"},
		{[]string{"run", "--output-format", "stream-json", "--session", "nope", "--model", "local/m", "--base-url", "http://127.0.0.1:9/v1", "hi"}, 1, `no session "nope"`},
		{[]string{"run", "--output-format", "json", "--max-turns", "0", "hi"}, 2, "--max-turns"},
	} {
		var out, errOut strings.Builder
		code := Main(c.args, strings.NewReader(""), &out, &errOut)
		var res struct {
			Type    string `json:"type"`
			IsError bool   `json:"isError"`
			Error   string `json:"error"`
		}
		if err := json.Unmarshal([]byte(out.String()), &res); err != nil || res.Type != "result" || !res.IsError || !strings.Contains(res.Error, c.why) {
			t.Errorf("%v: stdout %q (%v), want one error result naming %q", c.args, out.String(), err, c.why)
		}
		if code != c.code || !strings.Contains(errOut.String(), c.why) {
			t.Errorf("%v: exit %d, stderr %q; want %d and the reason", c.args, code, errOut.String(), c.code)
		}
	}
	var out, errOut strings.Builder
	if Main([]string{"run", "--continue", "--model", "local/m", "--base-url", "http://127.0.0.1:9/v1", "hi"}, strings.NewReader(""), &out, &errOut); out.Len() != 0 {
		t.Errorf("text format printed %q on stdout", out.String())
	}
}
