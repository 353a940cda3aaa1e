package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestClaudeFlagHints: Claude Code's flags that pincer does not take fail as a
// usage error (exit 2) naming pincer's equivalent, in the workbench, run and
// serve; an unknown flag of no one's gets the bare error.
func TestClaudeFlagHints(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume", "abc"}, "--session ID"},
		{[]string{"-r"}, "-c / --continue"},
		{[]string{"run", "--resume", "abc", "hi"}, "--session ID"},
		{[]string{"run", "hi", "--dangerously-skip-permissions"}, "--permission-mode bypassPermissions"},
		{[]string{"--dangerously-skip-permissions"}, "--permission-mode bypassPermissions"},
		{[]string{"serve", "--dangerously-skip-permissions"}, "--permission-mode bypassPermissions"},
		{[]string{"run", "--nosuch"}, "not defined: -nosuch\n"},
	} {
		var out, errb bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestHelpListsEverything: run and serve --help list every permission mode
// (auto too); pincer help sessions names every sessions subcommand.
func TestHelpListsEverything(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--help"}, []string{"dontAsk | auto"}},
		{[]string{"serve", "--help"}, []string{"dontAsk | auto"}},
		{[]string{"help", "sessions"}, []string{"sessions show ID", "sessions watch ID", "sessions diff ID"}},
	} {
		var out, errb bytes.Buffer
		Main(c.args, strings.NewReader(""), &out, &errb)
		for _, w := range c.want {
			if !strings.Contains(out.String()+errb.String(), w) {
				t.Errorf("%v: %q missing from\n%s%s", c.args, w, out.String(), errb.String())
			}
		}
	}
}
