package overlay

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"pincer/core/app"
)

func key(k tcell.Key, r rune) *tcell.EventKey { return tcell.NewEventKey(k, r, tcell.ModNone) }

func typeIn(p *Prompt, s string) {
	for _, r := range s {
		p.Key(key(tcell.KeyRune, r))
	}
}

// TestPromptAnswers: each kind answers as its keys say; a secret's text is
// drawn only as • and cleared once answered.
func TestPromptAnswers(t *testing.T) {
	ask := Open(Question{Kind: Ask, Text: "Base URL?", Default: "http://x"})
	if !ask.Key(key(tcell.KeyEnter, 0)) || (<-ask.Replies()).Text != "http://x" {
		t.Error("an empty Ask does not answer its default")
	}
	sec := Open(Question{Kind: Secret, Text: "Key?"})
	typeIn(sec, "sk-abc")
	sec.Paste("def\nignored")
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	sim.SetSize(80, 20)
	sec.Draw(sim, tview.NewBox().SetBorder(true), 0, 0, 80, 20, func(string) tcell.Style { return tcell.StyleDefault })
	sim.Show()
	cells, _, _ := sim.GetContents()
	var screen strings.Builder
	for _, c := range cells {
		screen.WriteString(string(c.Runes))
	}
	if strings.Contains(screen.String(), "sk-abc") || !strings.Contains(screen.String(), "•••••••••") {
		t.Errorf("the secret is drawn:\n%s", screen.String())
	}
	text := sec.text[:cap(sec.text)]
	if !sec.Key(key(tcell.KeyEnter, 0)) || (<-sec.Replies()).Text != "sk-abcdef" {
		t.Error("the secret's answer is wrong")
	}
	for _, r := range text {
		if r != 0 {
			t.Fatalf("the secret's text was not cleared: %q", string(text))
		}
	}
	ch := Open(Question{Kind: Choose, Text: "Model?", Options: []string{"a", "b", "c"}})
	if ch.Key(key(tcell.KeyRune, 'j')) || !ch.Key(key(tcell.KeyEnter, 0)) || (<-ch.Replies()).Index != 1 {
		t.Error("j then Enter does not choose the second")
	}
	ch = Open(Question{Kind: Choose, Options: []string{"a", "b", "c"}, Selected: 2})
	if !ch.Key(key(tcell.KeyEnter, 0)) || (<-ch.Replies()).Index != 2 {
		t.Error("Enter does not take the option Selected names")
	}
	ch = Open(Question{Kind: Choose, Options: []string{"a", "b", "c"}})
	if !ch.Key(key(tcell.KeyRune, '3')) || (<-ch.Replies()).Index != 2 {
		t.Error("3 does not choose the third")
	}
	yn := Open(Question{Kind: Confirm})
	if yn.Key(key(tcell.KeyRune, 'x')) || !yn.Key(key(tcell.KeyRune, 'y')) || !(<-yn.Replies()).Yes {
		t.Error("y does not confirm")
	}
	esc := Open(Question{Kind: Ask})
	if !esc.Key(key(tcell.KeyEscape, 0)) || !errors.Is((<-esc.Replies()).Err, app.ErrCancelled) {
		t.Error("Esc does not cancel")
	}
}
