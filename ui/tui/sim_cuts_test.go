package tui

import (
	"strings"
	"testing"
)

// TestStatusLineApprovalNotCut is a new-user trial's finding: at 80 and 120
// columns the status line ended "· approval w" / "approval waiting: y/s/": the
// approval notice is short and whole, the lower-priority fields go first.
func TestStatusLineApprovalNotCut(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b, _ := pendingEdit(t, sz[0], sz[1], "hello\n", "hello", "HELLO")
		s := b.waitText("3 Approvals (1)")
		status := lines(s)[sz[1]-2]
		if !strings.Contains(status, "⏵ approval: y/s/a/n/N") || !strings.Contains(status, "running") {
			t.Errorf("%dx%d: the status line's approval notice is cut: %q", sz[0], sz[1], status)
		}
		b.stop()
	}
}

// TestApprovalsTitleFits: the queue's title fits its pane: the long notice
// with the keys where it fits, else the short one, never a cut one.
func TestApprovalsTitleFits(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b, _ := pendingEdit(t, sz[0], sz[1], "hello\n", "hello", "HELLO")
		s := b.waitText("3 Approvals (1)")
		y, x := rowOf(s, "3 Approvals (1)")
		row := []rune(lines(s)[y])
		end := x
		for end < len(row) && row[end] != '╗' {
			end++
		}
		title := string(row[x:end])
		if strings.Contains(title, "…") {
			t.Errorf("%dx%d: the queue's title is cut: %q", sz[0], sz[1], title)
		}
		b.stop()
	}
}
