package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pincer/core/provider/openai/openaitest"
)

// TestTUITabsInTwoWorktrees is issue 14's tabs end to end: the real binary in
// tmux; two tabs opened with `/tab new NAME`, each session in its own git
// worktree on its own branch; a turn runs in each at the same time (both
// wait for the approval of a Write); both requests are answered from the one
// queue, shown in the third tab (the other tab's labelled with it); each
// worktree's branch gets its own edit (committed after the turn), the
// other's and the main checkout get none.
func TestTUITabsInTwoWorktrees(t *testing.T) {
	e := newEnv(t,
		openaitest.Reply{When: "alpha", ToolCalls: []openaitest.Call{{ID: "a1", Name: "Write", Args: `{"file_path":"alpha.txt","content":"alpha\n"}`}}},
		openaitest.Reply{When: "alpha", Text: "alpha written"},
		openaitest.Reply{When: "beta", ToolCalls: []openaitest.Call{{ID: "b1", Name: "Write", Args: `{"file_path":"beta.txt","content":"beta\n"}`}}},
		openaitest.Reply{When: "beta", Text: "beta written"},
	)
	tm := newTmux(t, 160, 45, workbenchScript(t, e, "tabs"))
	tm.waitText("1 Transcript", "· idle")
	open := func(name string) {
		tm.keys("M-0") // the input box: a request elsewhere may have taken the focus to the queue
		tm.typeText("/tab new " + name)
		tm.keys("Enter")
		tm.waitText("in worktree "+name, " "+name+" │")
	}
	open("wa")
	tm.typeText("alpha: write the file")
	tm.keys("Enter")
	tm.waitText("Write alpha.txt", "awaiting approval")
	open("wb")
	tm.keys("M-0")
	tm.typeText("beta: write the file")
	tm.keys("Enter")
	sc := tm.waitText("3 tabs: 2 running, 2 awaiting approval", "tab 2 · Write alpha.txt", "Write beta.txt")
	if !strings.Contains(sc, "2 wa ● ?1") || !strings.Contains(sc, "3 wb ● ?1") {
		t.Errorf("the tab bar does not show both turns waiting:\n%s", sc)
	}
	tm.keys("M-3")
	time.Sleep(700 * time.Millisecond) // a person reads the request (approval grace)
	tm.keys("y")                       // the selected one: the oldest, tab 2's
	tm.waitText("3 tabs: 1 running, 1 awaiting approval")
	time.Sleep(700 * time.Millisecond)
	tm.keys("y")
	tm.waitText("beta written", "3 tabs: 0 running")
	wts, _ := filepath.Glob(filepath.Join(e.home, "data", "worktrees", "*"))
	if len(wts) != 1 {
		t.Fatalf("worktree project dirs: %v", wts)
	}
	show := func(branchFile string) (string, bool) {
		cmd := exec.Command("git", "show", branchFile)
		cmd.Dir = e.repo
		out, err := cmd.Output()
		return string(out), err == nil
	}
	deadline := time.Now().Add(10 * time.Second) // the commit follows the turn's end
	for {
		a, okA := show("pincer/wa:alpha.txt")
		b, okB := show("pincer/wb:beta.txt")
		if okA && okB && a == "alpha\n" && b == "beta\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("branches: pincer/wa:alpha.txt %q %v, pincer/wb:beta.txt %q %v\n%s", a, okA, b, okB, tm.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, bf := range []string{"pincer/wa:beta.txt", "pincer/wb:alpha.txt", "HEAD:alpha.txt", "HEAD:beta.txt"} {
		if _, ok := show(bf); ok {
			t.Errorf("%s exists: an edit reached another branch", bf)
		}
	}
	for _, f := range []string{"alpha.txt", "beta.txt"} {
		if _, err := exec.Command("test", "-e", filepath.Join(e.repo, f)).Output(); err == nil {
			t.Errorf("%s is in the main checkout", f)
		}
	}
}
