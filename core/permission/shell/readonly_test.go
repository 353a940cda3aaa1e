package shell

import "testing"

func TestReadOnly(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{"ls -la", true},
		{"cat go.mod", true},
		{"head -n 5 f", true},
		{"tail -f log", true},
		{"wc -l f", true},
		{"grep -rn TODO .", true},
		{"rg -n foo", true},
		{"rg --pre cat foo", false},
		{"rg --pre=./x foo", false},
		{"find . -name '*.go' -type f", true},
		{"find . -exec rm {} \\;", false},
		{"find . -execdir ls \\;", false},
		{"find . -ok rm {} \\;", false},
		{"find . -okdir rm {} \\;", false},
		{"find . -delete", false},
		{"find . -fprint out", false},
		{"find . -fprint0 out", false},
		{"find . -fprintf out %p", false},
		{"find . -fls out", false},
		{"pwd", true},
		{"echo hi", true},
		{"stat f", true},
		{"du -sh .", true},
		{"which go", true},
		{"diff a b", true},
		{"echo hi > f", false},
		{"echo hi >> f", false},
		{"ls 2> err", false},
		{"ls &> all", false},
		{"ls >&out", false},
		{"ls > /dev/null 2>&1", true},
		{"ls 2>/dev/null", true},
		{"ls &>/dev/null", true},
		{"ls >&2", true},
		{"cat < in", true},
		{"cat <<EOF\nx\nEOF", true},
		{"git status", true},
		{"git status --porcelain", true},
		{"git diff HEAD~1 --stat", true},
		{"git diff --output=x", false},
		{"git diff --output x", false},
		{"git log --oneline -5", true},
		{"git log --output=f", false},
		{"git show HEAD:go.mod", true},
		{"git show --output=f HEAD", false},
		{"git --no-pager log", true},
		{"git -C sub status", true},
		{"git -c core.pager=sh log", false},
		{"git branch", true},
		{"git branch -a", true},
		{"git branch -vv", true},
		{"git branch -av", true},
		{"git branch --list 'feat*'", true},
		{"git branch -l 'feat*'", true},
		{"git branch --contains HEAD", true},
		{"git branch --merged main", true},
		{"git branch --show-current", true},
		{"git branch --sort=-committerdate --format '%(refname)'", true},
		{"git branch new-feature", false},
		{"git branch new-feature main", false},
		{"git branch -d old", false},
		{"git branch -D old", false},
		{"git branch -m a b", false},
		{"git branch -M a b", false},
		{"git branch -c a b", false},
		{"git branch -C a b", false},
		{"git branch --delete old", false},
		{"git branch --move a b", false},
		{"git branch --copy a b", false},
		{"git branch --set-upstream-to=origin/x", false},
		{"git branch -u origin/x", false},
		{"git branch -- new", false},
		{"git push", false},
		{"git commit -m x", false},
		{"git", false},
		{"command -v go", true},
		{"command -V go", true},
		{"command ls", true},
		{"timeout 5 cat f", true},
		{"nice -n 10 grep x f", true},
		{"LC_ALL=C sort f", false},
		{"LC_ALL=C grep x f", true},
		{"LANG=C TZ=UTC ls", true},
		{"PATH=/tmp ls", false},
		{"LD_PRELOAD=/tmp/x.so cat f", false},
		{"GIT_PAGER='rm -rf ~' git log", false},
		{"env PAGER=x git log", false},
		{"rm x", false},
		{"ls $DIR", false},
		{"cat *.go", false},
		{"echo $(rm x)", false},
		{"./ls", false},
		{"/bin/ls", false},
		{"sudo ls", false},
		{"xargs ls", false},
		{"bash -c ls", false},
		{"eval ls", false},
		{"x=1", true},
		{"x=1 y=two", true},
		{"PATH=/tmp/evil", false},
		{"x=$(id)", false},
		{"[[ -f go.mod ]]", true},
		{"[[ -f $f ]]", false},
		{"(( 1 + 2 ))", true},
		{"test -d x", true},
		{"true", true},
		{"export A=1", false},
		{"tee out", false},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Commands) == 0 {
			t.Errorf("Analyze(%q): no commands (risks %q)", tc.src, a.Risks)
			continue
		}
		if got := ReadOnly(a.Commands[0]); got != tc.want {
			t.Errorf("ReadOnly(%q) = %v, want %v (command %s)", tc.src, got, tc.want, show(a.Commands[0]))
		}
	}
}

// TestReadOnlyHandBuilt covers Commands built without Analyze, as the rule
// engine may do.
func TestReadOnlyHandBuilt(t *testing.T) {
	cases := []struct {
		c    Command
		want bool
	}{
		{Command{Words: []string{"ls"}, Literal: true}, true},
		{Command{Words: []string{"ls"}}, false},
		{Command{}, false},
		{Command{Literal: true}, true},
		{Command{Literal: true, Redirects: []Redirect{{Op: ">", Target: "f", Literal: true, Write: true}}}, false},
		{Command{Words: []string{"cat"}, Literal: true, Redirects: []Redirect{{Op: ">", Target: "$F", Write: true}}}, false},
		{Command{Words: []string{"cat"}, Literal: true, Redirects: []Redirect{{Op: ">", Target: "/dev/null", Literal: true, Write: true}}}, true},
	}
	for i, tc := range cases {
		if got := ReadOnly(tc.c); got != tc.want {
			t.Errorf("case %d: ReadOnly(%+v) = %v, want %v", i, tc.c, got, tc.want)
		}
	}
}
