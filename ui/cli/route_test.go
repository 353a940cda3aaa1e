package cli

import (
	"fmt"
	"testing"
)

// TestRouteArgs: which command a command line runs, with what arguments.
func TestRouteArgs(t *testing.T) {
	cases := []struct {
		args    []string
		command string
		rest    string
		err     bool
	}{
		{nil, "", "[]", false},
		{[]string{"--model", "m"}, "", "[--model m]", false},
		{[]string{"fix the bug"}, "", "[fix the bug]", false},
		{[]string{"fix", "the", "bug", "--model", "m"}, "", "[fix the bug --model m]", false},
		{[]string{"-p", "fix it"}, "run", "[fix it]", false},
		{[]string{"--print", "fix it", "--model", "m"}, "run", "[fix it --model m]", false},
		{[]string{"--model", "m", "-p", "fix it"}, "run", "[--model m fix it]", false},
		{[]string{"fix it", "-p"}, "run", "[fix it]", false},
		{[]string{"--", "-p"}, "", "[-- -p]", false},
		{[]string{"run", "-p"}, "run", "[-p]", false},
		{[]string{"sessions", "list"}, "sessions", "[list]", false},
		{[]string{"--help"}, "help", "[]", false},
		{[]string{"sesions"}, "", "", true},
		{[]string{"rn"}, "", "", true},
		{[]string{"hello"}, "", "[hello]", false},
		{[]string{"Sessions"}, "", "[Sessions]", false},
		{[]string{"explain"}, "", "[explain]", false},
	}
	for _, c := range cases {
		cmd, rest, err := routeArgs(c.args)
		if (err != nil) != c.err {
			t.Errorf("%q: err = %v, want error %v", c.args, err, c.err)
			continue
		}
		if err == nil && (cmd != c.command || fmt.Sprint(rest) != c.rest) {
			t.Errorf("%q: %q %v, want %q %s", c.args, cmd, rest, c.command, c.rest)
		}
	}
}
