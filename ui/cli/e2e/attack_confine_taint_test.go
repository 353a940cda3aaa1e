package e2e

// Red team r19 H1/H2: a command only a repository's rule allows runs with its
// reads confined, but it can prepare what a later, auto-allowed read-only
// call reads: swap t.txt for a symlink to a file outside after that call's
// decision saw a plain file, or plant sub/.git as a gitfile naming a
// repository outside. Once such a command has been allowed, the workspace is
// tainted (sandbox.Workspace.TaintReads) and every later Bash call the person
// did not allow themselves runs confined too: the outside content never
// reaches a tool result.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"pincer/core/provider/openai/openaitest"
)

// taintSecret and taintRepoSecret are the outside file's and the outside
// repository's contents.
const (
	taintSecret     = "RT-TAINT-OUTSIDE"
	taintRepoSecret = "RT-TAINT-REPO"
)

// taintScene is a workspace whose .claude/settings.json allows `sh …`, with
// t.txt a plain file, a FIFO ff (so a read-only `cat ff t.txt` waits, after
// its decision, until a script swaps t.txt), a plain directory sub, and the
// scripts the forms run; outside, secret.txt and a git repository whose f
// holds taintRepoSecret.
func taintScene(t *testing.T) *attackEnv {
	t.Helper()
	a := newAttackEnv(t)
	a.outside = outsideTemp(t)
	secret := filepath.Join(a.outside, "secret.txt")
	mustWrite(t, secret, taintSecret+"\n", 0o644)
	orepo := filepath.Join(a.outside, "repo")
	mustWrite(t, filepath.Join(orepo, "f"), taintRepoSecret+"\n", 0o644)
	git(t, orepo, "init", "-q")
	git(t, orepo, "add", "f")
	git(t, orepo, "-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "f")
	mustWrite(t, filepath.Join(a.repo, ".claude/settings.json"), ruleFile("json", []string{"Bash(sh:*)"}), 0o644)
	mustWrite(t, filepath.Join(a.repo, "t.txt"), "plain\n", 0o644)
	mustWrite(t, filepath.Join(a.repo, "sub/f"), "inside\n", 0o644)
	if err := syscall.Mkfifo(filepath.Join(a.repo, "ff"), 0o644); err != nil {
		t.Fatal(err)
	}
	swap := "rm -f t.txt; ln -s " + secret + " t.txt; echo go > ff\n"
	// swap.sh runs in the background and swaps t.txt after a moment.
	mustWrite(t, filepath.Join(a.repo, "swap.sh"), "sleep 1\n"+swap, 0o644)
	// gitfile.sh keeps planting sub/.git, faster than the quarantine removes it.
	mustWrite(t, filepath.Join(a.repo, "gitfile.sh"), "i=0; while [ $i -lt 400 ]; do echo 'gitdir: "+filepath.Join(orepo, ".git")+"' > sub/.git; i=$((i+1)); sleep 0.02; done\n", 0o644)
	return a
}

// bg is the arguments of a background Bash call of cmd.
func bg(cmd string) string {
	b, _ := json.Marshal(map[string]any{"command": cmd, "run_in_background": true})
	return string(b)
}

// timed is the arguments of a Bash call of cmd with a timeout of ms.
func timed(cmd string, ms int) string {
	b, _ := json.Marshal(map[string]any{"command": cmd, "timeout": ms})
	return string(b)
}

// TestAttackConfinedTaintsLaterReads: in each form a command only the
// repository's rule allows, run in the background (a foreground command's
// children end with it, and what it leaves behind the decision or the
// quarantine sees), prepares a path after an auto-allowed read-only call's
// decision, and that call reads it; the read runs confined (saying so) and shows nothing from
// outside. Each form is its own pincer run, so the taint of one cannot help
// another.
func TestAttackConfinedTaintsLaterReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		prep attackForm
		read attackForm
	}{
		{"background-swap-head",
			attackForm{Name: "prep", Args: bg("sh swap.sh")},
			attackForm{Name: "read", Args: timed("head -q -n 5 ff t.txt", 20000), Leak: taintSecret}},
		{"background-swap",
			attackForm{Name: "prep", Args: bg("sh swap.sh")},
			attackForm{Name: "read", Args: timed("cat ff t.txt", 20000), Leak: taintSecret}},
		{"background-gitfile",
			attackForm{Name: "prep", Args: bg("sh gitfile.sh")},
			attackForm{Name: "read", Args: timed("git -C sub show HEAD:f", 20000), Leak: taintRepoSecret}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := taintScene(t)
			forms := []attackForm{tc.prep, tc.read}
			if tc.name == "background-gitfile" { // let the loop plant sub/.git first
				forms = []attackForm{tc.prep, {Name: "wait", Args: timed("cat ff", 3000)}, tc.read}
			}
			r := a.runForms("tnt", forms, "--permission-mode", "default")
			prep, read := r.Results[0], r.Results[len(r.Results)-1]
			if prep.Decision != "allow" || prep.Rule == "" {
				t.Fatalf("HARNESS: the preparing command was not run by the repository's rule\n  %s", prep.describe())
			}
			if read.Decision != "allow" || read.Rule != "" || !read.Completed {
				t.Fatalf("HARNESS: the read was not auto-allowed and run\n  %s", read.describe())
			}
			read.checkEffects(t)
			if strings.Count(read.Output, confinedMark) != 1 {
				t.Errorf("the read does not say once that its reads were confined\n  %s", read.describe())
			}
			a.checkNoLeak(t, tc.read.Leak)
		})
	}
}

// TestUntaintedReadsUnconfined: with no command only a repository's rule
// allows, read-only calls run unconfined, as before, and say nothing about
// confinement; so does a call the person's own rule allows after one.
func TestUntaintedReadsUnconfined(t *testing.T) {
	t.Parallel()
	a := taintScene(t)
	r := a.runForms("unt", []attackForm{{Name: "cat", Cmd: "cat t.txt"}, {Name: "git", Cmd: "git -C sub status --short"}}, "--permission-mode", "default")
	for _, c := range r.Results {
		if c.Decision != "allow" || !c.Completed || c.IsError || strings.Contains(c.Output, confinedMark) {
			t.Errorf("%s: a read-only call without any taint is not run plainly\n  %s", c.Form.Name, c.describe())
		}
	}
	if !strings.Contains(r.Results[0].Output, "plain") {
		t.Errorf("cat t.txt did not print the file\n  %s", r.Results[0].describe())
	}
	mustWrite(t, filepath.Join(a.home, "config.toml"), ruleFile("toml", []string{"Bash(cat:*)"}), 0o644)
	if err := os.Remove(filepath.Join(a.repo, "ff")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(a.repo, "prep.sh"), "echo prepared\n", 0o644)
	r = a.runForms("per", []attackForm{{Name: "prep", Cmd: "sh prep.sh"}, {Name: "cat", Cmd: "cat t.txt"}}, "--permission-mode", "default")
	if c := r.Results[1]; c.Decision != "allow" || c.Rule == "" || strings.Contains(c.Output, confinedMark) || !strings.Contains(c.Output, "plain") {
		t.Errorf("the person's own rule no longer runs a call unconfined after a project-only command\n  %s", c.describe())
	}
	if c := r.Results[0]; !strings.Contains(c.Output, confinedMark) {
		t.Errorf("HARNESS: the project-only command did not run confined\n  %s", c.describe())
	}
}

// TestSubagentTaintsParent: a command only the repository's rule allows, run
// by a subagent, taints the workspace its parent shares: the parent's later
// auto-allowed read-only call runs confined and says so.
func TestSubagentTaintsParent(t *testing.T) {
	t.Parallel()
	a := taintScene(t)
	mustWrite(t, filepath.Join(a.repo, "prep.sh"), "echo prepared\n", 0o644)
	sub, _ := a.calls("sub", []attackForm{{Name: "prep", Cmd: "sh prep.sh"}})
	parent, results := a.calls("par", []attackForm{{Name: "read", Cmd: "cat t.txt"}})
	a.fake.Push(
		openaitest.Reply{ToolCalls: []openaitest.Call{agentCall("ag1", "general-purpose", "prep", "run prep", "")}},
		openaitest.Reply{ToolCalls: sub}, openaitest.Reply{Text: "sub done"},
		openaitest.Reply{ToolCalls: parent}, openaitest.Reply{Text: "done"})
	out, stderr, code := a.runPincer(a.runArgs("--output-format", "stream-json", "--permission-mode", "default", "attack sub")...)
	r := &attackRun{Stdout: out, Stderr: stderr, Code: code, Results: results}
	a.collect(r)
	c := r.Results[0]
	if c.Decision != "allow" || !c.Completed || !strings.Contains(c.Output, "plain") {
		t.Fatalf("HARNESS: the parent's read did not run\n  %s\n%s", c.describe(), stderr)
	}
	if !strings.Contains(c.Output, confinedMark) {
		t.Errorf("the parent's read after the subagent's project-only command ran unconfined\n  %s", c.describe())
	}
}
