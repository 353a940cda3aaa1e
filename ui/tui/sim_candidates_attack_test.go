package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	mem "pincer/core/memory"
)

// controlCells lists the control runes (C0 but none, DEL, C1) the screen
// holds: what a terminal would take as a command, not text.
func controlCells(b *simBench) []rune {
	var out []rune
	b.onLoop(func() {
		cs, _, _ := b.sim.GetContents()
		for _, c := range cs {
			for _, r := range c.Runes {
				if (r > 0 && r < 0x20) || (r >= 0x7f && r <= 0x9f) {
					out = append(out, r)
				}
			}
		}
	})
	return out
}

// TestAttackCandidatePastedYDoesNotAccept (attack: the model, or text it got
// pasted, answers its own candidate): yy, yes, yyy, ye, ey and ny arriving as fast
// as a paste while the queue has the keys accept nothing; the same y pressed
// on its own does (the control).
func TestAttackCandidatePastedYDoesNotAccept(t *testing.T) {
	for _, form := range []string{"yy", "yes", "yyy", "ye", "ey", "ny"} {
		t.Run(form, func(t *testing.T) {
			b, _, sid, m := memoryBench(t, 160, 50)
			target := proposeTabs(t, b, m)
			b.key(tcell.KeyRune, '3', tcell.ModAlt)
			b.waitFor("the approvals focused", func(string) bool { return b.focus() == paneApprovals })
			time.Sleep(approvalGrace + 3*burstGap)
			b.typeText(form) // as a paste would arrive
			time.Sleep(commitDelay + 5*burstGap)
			if _, err := os.Stat(target); !os.IsNotExist(err) || len(pendingCandidates(t, m, sid)) != 1 {
				t.Fatalf("a burst %q accepted the candidate (%v)", form, err)
			}
			b.key(tcell.KeyRune, '3', tcell.ModAlt)
			b.afterReading("y")
			b.waitText("3 Approvals (0) · 1 decided")
			if _, err := os.Stat(target); err != nil {
				t.Fatalf("y on its own did not accept: %v", err)
			}
		})
	}
}

// TestAttackCandidateTextEscapes (attack: a candidate's text is the model's
// — the Remember tool's content): escape sequences in it (OSC 52 writing
// the clipboard, a cursor move, a device status query, the end of a
// bracketed paste, an 8-bit CSI, BEL, a carriage return over text) reach
// neither the diff pane nor the editor as control characters; saved
// untouched from the editor, what is written is the clean text the person
// saw, not the escapes.
func TestAttackCandidateTextEscapes(t *testing.T) {
	payloads := map[string]string{
		"osc52":  "PROOF \x1b]52;c;cm0gLXJmIH4=\x07 tail",
		"cup":    "PROOF \x1b[2J\x1b[1;1H tail",
		"dsr":    "PROOF \x1b[6n tail",
		"paste":  "PROOF \x1b[201~ tail",
		"c1csi":  "PROOF \u009b31m tail",
		"bel-cr": "PROOF \a\rOVERWRITE tail",
	}
	for name, payload := range payloads {
		t.Run(name, func(t *testing.T) {
			b, _, sid, m := memoryBench(t, 160, 50)
			c, err := m.Propose(context.Background(), mem.Proposal{Kind: mem.KindMemory, Type: mem.TypeProject, Name: "marker " + name,
				Description: "a marker", Body: payload, SessionID: sid, Origin: mem.OriginRememberTool})
			if err != nil {
				t.Skipf("the Manager refuses the payload itself: %v", err)
			}
			b.waitText("Memory: add project “marker "+name+"”", "PROOF")
			if bad := controlCells(b); len(bad) > 0 {
				t.Fatalf("the diff pane drew control runes %q", bad)
			}
			b.afterReading("e")
			b.waitText("Ctrl+S saves · Esc cancels", "PROOF")
			if bad := controlCells(b); len(bad) > 0 {
				t.Fatalf("the editor drew control runes %q", bad)
			}
			b.key(tcell.KeyCtrlS, 0, tcell.ModNone)
			b.waitText("3 Approvals (0) · 1 decided")
			data, err := os.ReadFile(c.Target)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "PROOF") || strings.ContainsAny(string(data), "\x1b\a\r\u009b") {
				t.Fatalf("written:\n%q", data)
			}
		})
	}
}
