package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestModelArgumentErrorsExitTwo: a model command given a bad argument (not
// PROVIDER/MODEL, a provider that does not exist, a name no provider can
// have) is a usage error: one line, exit 2, as every usage error of pincer.
func TestModelArgumentErrorsExitTwo(t *testing.T) {
	modelHome(t)
	cases := []struct {
		args []string
		say  string
	}{
		{[]string{"model", "default", "nope"}, "want PROVIDER/MODEL"},
		{[]string{"model", "default", "nope/x"}, `unknown provider "nope"`},
		{[]string{"model", "add-model", "nope", "m"}, `unknown provider "nope"`},
		{[]string{"model", "add-model", "openai", " "}, "needs a model name"},
		{[]string{"model", "set", "bad name!", "api-key"}, "cannot name a provider"},
		{[]string{"model", "configure", "bad name!"}, "cannot name a provider"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		stderr := errb.String()
		if code != exitUsage || !strings.Contains(stderr, c.say) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("pincer %q: exit %d, stderr %q; want %d and one line saying %q", c.args, code, stderr, exitUsage, c.say)
		}
	}
}
