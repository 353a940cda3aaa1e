package permission

import "testing"

// readOnlyCorpus is the literal read-only commands of the existing tests (the
// shell package's ReadOnly cases that are true, and this package's read-only
// cases), all inside the workspace: each must still need no approval.
var readOnlyCorpus = []string{
	"ls -la",
	"cat go.mod",
	"head -n 5 f",
	"tail -f log",
	"wc -l f",
	"grep -rn TODO .",
	"rg -n foo",
	"find . -name '*.go' -type f",
	"pwd",
	"echo hi",
	"stat f",
	"du -sh .",
	"which go",
	"diff a b",
	"ls > /dev/null 2>&1",
	"ls 2>/dev/null",
	"ls &>/dev/null",
	"ls >&2",
	"cat < in",
	"cat <<EOF\nx\nEOF",
	"git status",
	"git status --porcelain",
	"git diff HEAD~1 --stat",
	"git log --oneline -5",
	"git show HEAD:go.mod",
	"git --no-pager log",
	"git -C sub status",
	"git branch",
	"git branch -a",
	"git branch -vv",
	"git branch -av",
	"git branch --list 'feat*'",
	"git branch -l 'feat*'",
	"git branch --contains HEAD",
	"git branch --merged main",
	"git branch --show-current",
	"git branch --sort=-committerdate --format '%(refname)'",
	"command -v go",
	"command -V go",
	"command ls",
	"timeout 5 cat f",
	"nice -n 10 grep x f",
	"LC_ALL=C grep x f",
	"LANG=C TZ=UTC ls",
	"x=1",
	"x=1 y=two",
	"[[ -f go.mod ]]",
	"(( 1 + 2 ))",
	"test -d x",
	"true",
	"ls -la && git status && cat a.go | wc -l",
	"grep -r x . 2>/dev/null",
	"git log --oneline | head",
	"cat a.go | wc -l",
	"ls /w/sub",
	"cat ~/x",
}

// TestReadOnlyCorpusStaysFree counts the corpus' commands that need no approval
// in default mode with no rules (issue 10: usability must not pay for safety).
func TestReadOnlyCorpusStaysFree(t *testing.T) {
	free := 0
	for _, cmd := range readOnlyCorpus {
		in := bash(cmd)
		in.Home = ws // ~/x is inside the workspace here
		if d := Evaluate(ModeDefault, RuleSet{}, in); d.Behavior == Allow {
			free++
		} else {
			t.Logf("%q: %s (%s)", cmd, d.Behavior, d.Reason)
		}
	}
	t.Logf("%d of %d literal read-only commands need no approval", free, len(readOnlyCorpus))
}
