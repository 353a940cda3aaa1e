package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// blockAt is the index of the first transcript block of m whose text holds
// s (-1: none).
func blockAt(m *Model, s string) int {
	for i, bl := range m.Blocks {
		if strings.Contains(bl.Text, s) || strings.Contains(bl.Title, s) {
			return i
		}
	}
	return -1
}

// branchShowsTurnOne reports whether a model of a branch made before turn 2
// of rewindSession shows turn 1 — its prompt, its Write call (transcript
// and timeline) and its answer — and nothing of turn 2.
func branchShowsTurnOne(m *Model) bool {
	_, call := m.Tool("c1")
	return blockAt(m, "the first prompt") >= 0 && blockAt(m, "one done") > blockAt(m, "the first prompt") &&
		call && blockAt(m, "two done") < 0 && blockAt(m, "the second prompt") < 0
}

// TestRewindBranchShowsItsConversation: "Restore conversation" to before
// turn 2 of a two-turn session puts the tab on the branch, which shows turn
// 1's prompt, Write call and answer (the model receives them too) and a line
// marking the branch point; a new prompt in the branch appears after them;
// reopened in a new workbench (pincer --session ID) the branch shows the
// same.
func TestRewindBranchShowsItsConversation(t *testing.T) {
	b, _, origin, _ := rewindSession(t)
	b.slash("/rewind 2")
	b.waitText("to before turn 2: what to restore?")
	b.typeText("2")
	b.enter()
	b.waitText("the conversation continues in branch")
	var branch string
	b.onLoop(func() { branch = b.w.liveID })
	if branch == origin {
		t.Fatal("the tab still shows the origin")
	}
	b.waitModel("the branch to show turn 1", branchShowsTurnOne)
	b.waitText("⎇ branch of "+origin+" before turn 2", "the first prompt", "one done")
	b.send("the branch prompt")
	b.waitText("the branch answer")
	b.waitModel("the branch prompt after turn 1", func(m *Model) bool {
		p := blockAt(m, "the branch prompt")
		return branchShowsTurnOne(m) && p > blockAt(m, "one done") && blockAt(m, "the branch answer") > p && m.Status.Turns == 2
	})

	again := startBench(t, 140, 44, Options{})
	again.w.Attach(b.backend(), branch)
	again.waitModel("the reopened branch", func(m *Model) bool {
		return branchShowsTurnOne(m) && blockAt(m, "the branch answer") > blockAt(m, "one done")
	})
	again.key(tcell.KeyRune, '2', tcell.ModAlt)
	again.waitText("Write")
}
