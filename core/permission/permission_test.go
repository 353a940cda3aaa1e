package permission

import (
	"strings"
	"testing"
)

func TestDecide(t *testing.T) {
	ws := "/w"
	read := Request{Tool: "Read", Kind: "read", Paths: []string{"/w/a.go"}, Workspace: ws}
	edit := Request{Tool: "Edit", Kind: "edit", Paths: []string{"/w/a.go"}, Workspace: ws}
	editOut := Request{Tool: "Edit", Kind: "edit", Paths: []string{"/wx/a.go"}, Workspace: ws}
	bash := Request{Tool: "Bash", Kind: "execute", Workspace: ws}
	cases := []struct {
		mode Mode
		req  Request
		want Behavior
	}{
		{ModeDefault, read, Allow},
		{ModeDefault, edit, Ask},
		{ModeDefault, bash, Ask},
		{ModeAcceptEdits, read, Allow},
		{ModeAcceptEdits, edit, Allow},
		{ModeAcceptEdits, editOut, Ask},
		{ModeAcceptEdits, bash, Ask},
		{ModePlan, read, Allow},
		{ModePlan, edit, Deny},
		{ModePlan, bash, Deny},
		{ModeBypass, bash, Allow},
		{ModeBypass, editOut, Allow},
		{ModeDontAsk, read, Allow},
		{ModeDontAsk, edit, Deny},
		{ModeDontAsk, bash, Deny},
	}
	for _, c := range cases {
		got := Decide(c.mode, c.req)
		if got.Behavior != c.want {
			t.Errorf("Decide(%s, %s %v) = %s (%s), want %s", c.mode, c.req.Tool, c.req.Paths, got.Behavior, got.Reason, c.want)
		}
		if got.Reason == "" || got.By == "" {
			t.Errorf("Decide(%s, %s): empty reason or by: %+v", c.mode, c.req.Tool, got)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if m, err := ParseMode(""); err != nil || m != ModeDefault {
		t.Errorf("ParseMode(\"\") = %q, %v", m, err)
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), "bypassPermissions") {
		t.Errorf("ParseMode(yolo) error = %v, want a list of modes", err)
	}
}

func TestHeadlessDenialNamesFlag(t *testing.T) {
	d := HeadlessDenial(ModeDefault, Input{Tool: "Bash", Kind: "execute"})
	if d.Behavior != Deny || !strings.Contains(d.Reason, "--permission-mode bypassPermissions") {
		t.Errorf("bash denial = %+v", d)
	}
	d = HeadlessDenial(ModeDefault, Input{Tool: "Edit", Kind: "edit"})
	if !strings.Contains(d.Reason, "acceptEdits") {
		t.Errorf("edit denial = %+v", d)
	}
}

// The hint names the exact rule to pass (an "always" answer's rule).
func TestHeadlessDenialNamesRule(t *testing.T) {
	for _, c := range []struct {
		in   Input
		want string
	}{
		{Input{Tool: "mcp__ev__echo", Kind: "execute"}, "allow it with --allowed-tools mcp__ev__echo"},
		{Input{Tool: "Bash", Kind: "execute", Command: "npm test"}, "allow it with --allowed-tools 'Bash(npm test)'"},
		{Input{Tool: "Bash", Kind: "execute", Command: "grep 'a b' f"}, `allow it with --allowed-tools 'Bash(grep '\''a b'\'' f)'`},
	} {
		if d := HeadlessDenial(ModeDefault, c.in); !strings.HasSuffix(d.Reason, c.want) {
			t.Errorf("%s %q: %q; want suffix %q", c.in.Tool, c.in.Command, d.Reason, c.want)
		}
	}
}

// A command no literal rule can allow whole (a loop's expanded words) is
// not told to pass rules that would not allow it (new user r21: the rules
// named were passed and the same denial came back), nor given a bare
// "--allowed-tools" when no rule can be named (new user r22): the hint says
// no rule can, and names the mode.
func TestHeadlessDenialNoRuleCan(t *testing.T) {
	ws := t.TempDir()
	for _, cmd := range []string{
		"for i in 1 2 3; do echo tick $i; cat /etc/hostname; sleep 1; done",
		"for f in *; do echo $f; done",
		"x=1; echo $x",
		"echo $(date) && rm -f out",
	} {
		in := Input{Tool: "Bash", Kind: "execute", Workspace: ws, Cwd: ws, Command: cmd}
		d := HeadlessDenial(ModeDefault, in)
		if !strings.Contains(d.Reason, "no --allowed-tools rule can allow every part") || strings.Contains(d.Reason, "allow it with --allowed-tools") ||
			strings.HasSuffix(d.Reason, "--allowed-tools") || !strings.Contains(d.Reason, "bypassPermissions") {
			t.Errorf("denial of %q: %q", cmd, d.Reason)
		}
	}
}

func TestHeadlessDenialOutsideWorkspace(t *testing.T) {
	d := HeadlessDenial(ModeAcceptEdits, Input{Tool: "Write", Kind: "edit", Paths: []string{"/tmp/x"}, Workspace: "/w"})
	if d.Behavior != Deny || !strings.Contains(d.Reason, "outside the workspace") || strings.Contains(d.Reason, "bypassPermissions") {
		t.Errorf("denial = %+v", d)
	}
}

func TestAddedDirsCountAsWorkspace(t *testing.T) {
	in := Input{Tool: "Read", Kind: KindRead, Paths: []string{"/extra/notes.txt"}, Workspace: "/w"}
	if d := Evaluate(ModeDefault, RuleSet{}, in); d.Behavior == Allow {
		t.Fatalf("a read outside the workspace was allowed without an added dir: %+v", d)
	}
	in.AddedDirs = []string{"/extra"}
	if d := Evaluate(ModeDefault, RuleSet{}, in); d.Behavior != Allow {
		t.Errorf("a read in an added dir: %+v", d)
	}
	edit := Input{Tool: "Edit", Kind: KindEdit, Paths: []string{"/extra/notes.txt"}, Workspace: "/w", AddedDirs: []string{"/extra"}}
	if d := Evaluate(ModeAcceptEdits, RuleSet{}, edit); d.Behavior != Allow {
		t.Errorf("acceptEdits in an added dir: %+v", d)
	}
}

// A Bash command whose only approval is a workspace file it writes names
// acceptEdits, and its hint says what the Edit rule is for; a command
// acceptEdits does not allow names bypassPermissions.
func TestHeadlessDenialBashWrites(t *testing.T) {
	ws := t.TempDir()
	for _, c := range []struct {
		command, mode string
		edit          bool
	}{
		{"echo hi > out.txt", "--permission-mode acceptEdits (or bypassPermissions)", true},
		{"mkdir build", "--permission-mode acceptEdits (or bypassPermissions)", false},
		{"npm install left-pad", "--permission-mode bypassPermissions,", false},
		{"npm test > log.txt", "--permission-mode bypassPermissions,", true},
	} {
		d := HeadlessDenial(ModeDefault, Input{Tool: "Bash", Kind: KindExecute, Command: c.command, Workspace: ws, Cwd: ws})
		if !strings.Contains(d.Reason, c.mode) {
			t.Errorf("%q: %q; want %q", c.command, d.Reason, c.mode)
		}
		if got := strings.Contains(d.Reason, "an Edit rule allows the file the command writes"); got != c.edit {
			t.Errorf("%q: %q; Edit rule explained %v, want %v", c.command, d.Reason, got, c.edit)
		}
	}
}
