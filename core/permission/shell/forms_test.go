package shell

import (
	"strings"
	"testing"
)

// TestFormsAndProgram: deny rules must see the wrapped program in every
// dress (class 11). Each case lists the texts of the Forms of the first
// Command (words joined by "|") and its Program.
func TestFormsAndProgram(t *testing.T) {
	cases := []struct {
		src     string
		forms   []string
		program string
	}{
		{"rm -rf x", []string{"rm|-rf|x"}, "rm"},
		{"/bin/rm -rf x", []string{"/bin/rm|-rf|x", "rm|-rf|x"}, "rm"},
		{"/usr/bin/curl -s x", []string{"/usr/bin/curl|-s|x", "curl|-s|x"}, "curl"},
		{"./x/rm y", []string{"./x/rm|y", "rm|y"}, "rm"},
		{"sudo rm x", []string{"sudo|rm|x", "rm|x"}, "rm"},
		{"sudo -u root -E /bin/rm x", []string{"sudo|-u|root|-E|/bin/rm|x", "/bin/rm|x", "rm|x"}, "rm"},
		{"doas -u x rm y", []string{"doas|-u|x|rm|y", "rm|y"}, "rm"},
		{"exec rm x", []string{"exec|rm|x", "rm|x"}, "rm"},
		{"exec -a n rm x", []string{"exec|-a|n|rm|x", "rm|x"}, "rm"},
		{"builtin eval x", []string{"builtin|eval|x", "eval|x"}, "eval"},
		{"command rm x", []string{"command|rm|x", "rm|x"}, "rm"},
		{"command -p rm x", []string{"command|-p|rm|x", "rm|x"}, "rm"},
		{"env rm x", []string{"env|rm|x", "rm|x"}, "rm"},
		{"env -i -u HOME A=1 rm x", []string{"env|-i|-u|HOME|A=1|rm|x", "rm|x"}, "rm"},
		{"env -C / rm x", []string{"env|-C|/|rm|x", "rm|x"}, "rm"},
		{"env -S 'rm -rf x'", []string{"env|-S|rm -rf x", "rm|-rf|x"}, "rm"},
		{"nice -n 5 rm x", []string{"nice|-n|5|rm|x", "rm|x"}, "rm"},
		{"nohup rm x", []string{"nohup|rm|x", "rm|x"}, "rm"},
		{"timeout -s KILL 5 rm x", []string{"timeout|-s|KILL|5|rm|x", "rm|x"}, "rm"},
		{"timeout --signal=KILL 5s rm x", []string{"timeout|--signal=KILL|5s|rm|x", "rm|x"}, "rm"},
		{"stdbuf -oL rm x", []string{"stdbuf|-oL|rm|x", "rm|x"}, "rm"},
		{"time rm x", []string{"rm|x"}, "rm"},
		{"setsid -f rm x", []string{"setsid|-f|rm|x", "rm|x"}, "rm"},
		{"ionice -c 3 rm x", []string{"ionice|-c|3|rm|x", "rm|x"}, "rm"},
		{"sudo timeout 5 nice sudo -u x env A=1 /bin/rm x", []string{"sudo|timeout|5|nice|sudo|-u|x|env|A=1|/bin/rm|x",
			"timeout|5|nice|sudo|-u|x|env|A=1|/bin/rm|x", "nice|sudo|-u|x|env|A=1|/bin/rm|x", "sudo|-u|x|env|A=1|/bin/rm|x",
			"env|A=1|/bin/rm|x", "/bin/rm|x", "rm|x"}, "rm"},
		{"git push", []string{"git|push"}, "git"},
		{"git -C . push", []string{"git|-C|.|push", "git|push"}, "git"},
		{"git -c a=b push --force", []string{"git|-c|a=b|push|--force", "git|push|--force"}, "git"},
		{"git --git-dir=x push", []string{"git|--git-dir=x|push", "git|push"}, "git"},
		{"git --no-pager push", []string{"git|--no-pager|push", "git|push"}, "git"},
		{"/usr/bin/git -C a -C b push", []string{"/usr/bin/git|-C|a|-C|b|push", "git|-C|a|-C|b|push", "git|push"}, "git"},
		{"sudo git -c x=y push", []string{"sudo|git|-c|x=y|push", "git|-c|x=y|push", "git|push"}, "git"},
		{`"r""m" x`, []string{"rm|x"}, "rm"},
		{`\rm x`, []string{"rm|x"}, "rm"},
		{"rm${IFS}x", []string{"rm${IFS}x"}, ""},
		{"$(echo rm) x", []string{"$(echo rm)|x"}, ""},
		{`"$cmd" x`, []string{`"$cmd"|x`}, ""},
		{"sudo $CMD x", []string{"sudo|$CMD|x"}, ""},
		{"env $X rm", []string{"env|$X|rm"}, ""},
		{"timeout $T rm x", []string{"timeout|$T|rm|x"}, ""},
		{"sudo", []string{"sudo"}, "sudo"},
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Commands) == 0 {
			t.Errorf("%q: no commands", tc.src)
			continue
		}
		c := a.Commands[0]
		var got []string
		for _, f := range c.Forms() {
			got = append(got, strings.Join(f, "|"))
		}
		if !equalStrings(got, tc.forms) {
			t.Errorf("Forms(%q):\n got  %q\n want %q", tc.src, got, tc.forms)
		}
		if p := c.Program(); p != tc.program {
			t.Errorf("Program(%q) = %q, want %q", tc.src, p, tc.program)
		}
	}
}

func TestGitSubcommand(t *testing.T) {
	cases := []struct {
		words []string
		sub   string
		rest  string
		dirs  string
	}{
		{[]string{"git", "push", "origin"}, "push", "origin", ""},
		{[]string{"git", "-C", ".", "push"}, "push", "", "."},
		{[]string{"git", "-C", "a", "-C", "../b", "status", "-s"}, "status", "-s", "a|../b"},
		{[]string{"git", "-c", "a=b", "--git-dir", "x", "--work-tree=y", "-p", "log"}, "log", "", ""},
		{[]string{"git", "--exec-path=.", "--namespace=n", "--config-env", "a=B", "push"}, "push", "", ""},
		{[]string{"/usr/bin/git", "--no-pager", "show"}, "show", "", ""},
		{[]string{"git"}, "", "", ""},
		{[]string{"git", "-C"}, "", "", ""},
		{[]string{"gitk", "push"}, "", "", ""},
	}
	for _, tc := range cases {
		sub, rest := GitSubcommand(tc.words)
		g, _ := ParseGit(tc.words)
		if sub != tc.sub || strings.Join(rest, "|") != tc.rest || strings.Join(g.Dirs, "|") != tc.dirs {
			t.Errorf("GitSubcommand(%q) = %q %q dirs %q; want %q %q %q", tc.words, sub, rest, g.Dirs, tc.sub, tc.rest, tc.dirs)
		}
	}
}
