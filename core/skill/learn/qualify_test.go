package learn

import (
	"strings"
	"testing"
)

// TestQualify: only a completed multi-step task that acted, ended well and
// was not undone is a skill to propose; each other case says why not.
func TestQualify(t *testing.T) {
	failed := append(append([]call(nil), workedCalls...), call{tool: "Bash", key: "command", val: "go test ./...", fail: true})
	undone := append(append([]call(nil), workedCalls...), call{tool: "Bash", key: "command", val: "git checkout -- lint.go"})
	stashed := append(append([]call(nil), workedCalls...), call{tool: "Bash", key: "command", val: "FOO=1 git stash"})
	listed := append(append([]call(nil), workedCalls...), call{tool: "Bash", key: "command", val: "git stash list"})
	reads := []call{{tool: "Read", key: "file_path", val: "a"}, {tool: "Grep", key: "pattern", val: "x"}, {tool: "Glob", key: "pattern", val: "*"}}
	for _, c := range []struct {
		name    string
		input   string
		calls   []call
		sub     bool
		min     int
		wantWhy string
	}{
		{"worked", "fix the lint errors", workedCalls, false, 3, ""},
		{"subagent", "fix the lint errors", workedCalls, true, 3, "subagent"},
		{"invocation", "/fix-lint now", workedCalls, false, 3, "command"},
		{"too few", "fix it", workedCalls[:2], false, 3, "fewer than 3"},
		{"default minimum", "fix it", workedCalls, false, 0, "fewer than 5"},
		{"higher minimum", "fix it", workedCalls, false, 4, "fewer than 4"},
		{"only reads", "where is x", reads, false, 3, "changed or ran"},
		{"last failed", "fix it", failed, false, 3, "last tool call failed"},
		{"undone by checkout", "fix it", undone, false, 3, "undid"},
		{"undone by stash", "fix it", stashed, false, 3, "undid"},
		{"stash list is no undo", "fix it", listed, false, 3, ""},
		{"no request", "", workedCalls, false, 3, "no request"},
	} {
		tr := Read(c.input, turnMessages(c.input, c.calls, "done"), "done")
		why := Qualify(tr, Turn{Subagent: c.sub, Input: c.input}, c.min)
		if (c.wantWhy == "") != (why == "") || !strings.Contains(why, c.wantWhy) {
			t.Errorf("%s: Qualify = %q, want %q", c.name, why, c.wantWhy)
		}
	}
}

// TestReadTrajectory: steps in order with their subjects and outcomes, the
// commands that worked each once.
func TestReadTrajectory(t *testing.T) {
	calls := append(append([]call(nil), workedCalls...),
		call{tool: "Bash", key: "command", val: "go test ./x", fail: true},
		call{tool: "Bash", key: "command", val: "go vet ./... && go test ./lint"})
	tr := Read("", turnMessages("fix lint", calls, " all good "), " all good ")
	if tr.Goal != "fix lint" || tr.Final != "all good" || len(tr.Steps) != 5 {
		t.Fatalf("trajectory %+v", tr)
	}
	if s := tr.Steps[3]; s.OK || s.Subject != "go test ./x" {
		t.Errorf("failed step %+v", s)
	}
	if got := strings.Join(tr.Commands(), " | "); got != "go vet ./... && go test ./lint" {
		t.Errorf("commands %q", got)
	}
}
