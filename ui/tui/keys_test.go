package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestParseKey(t *testing.T) {
	tests := []struct {
		in   string
		want Key
		str  string
	}{
		{"enter", Key{Code: tcell.KeyEnter}, "Enter"},
		{"shift+enter", Key{Code: tcell.KeyEnter, Mod: tcell.ModShift}, "Shift+Enter"},
		{"Alt+Enter", Key{Code: tcell.KeyEnter, Mod: tcell.ModAlt}, "Alt+Enter"},
		{"ctrl+j", Key{Code: tcell.KeyCtrlJ, Mod: tcell.ModCtrl}, "Ctrl+J"},
		{"ctrl+T", Key{Code: tcell.KeyCtrlT, Mod: tcell.ModCtrl}, "Ctrl+T"},
		{"alt+1", Key{Code: tcell.KeyRune, Rune: '1', Mod: tcell.ModAlt}, "Alt+1"},
		{"G", Key{Code: tcell.KeyRune, Rune: 'G'}, "G"},
		{"shift+g", Key{Code: tcell.KeyRune, Rune: 'G'}, "G"},
		{"?", Key{Code: tcell.KeyRune, Rune: '?'}, "?"},
		{"+", Key{Code: tcell.KeyRune, Rune: '+'}, "+"},
		{"space", Key{Code: tcell.KeyRune, Rune: ' '}, "Space"},
		{"shift+tab", Key{Code: tcell.KeyBacktab}, "Shift+Tab"},
		{"pgdn", Key{Code: tcell.KeyPgDn}, "PgDn"},
		{"f1", Key{Code: tcell.KeyF1}, "F1"},
		{"esc", Key{Code: tcell.KeyEscape}, "Esc"},
	}
	for _, tt := range tests {
		got, err := ParseKey(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseKey(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			continue
		}
		if got.String() != tt.str {
			t.Errorf("%q prints as %q, want %q", tt.in, got.String(), tt.str)
		}
	}
	for _, bad := range []string{"", "hyper+x", "ctrl+1", "nosuchkey", "ctrl+"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}

func TestKeyMatchesTerminalEvents(t *testing.T) {
	tests := []struct {
		key  string
		ev   *tcell.EventKey
		want bool
	}{
		{"ctrl+j", tcell.NewEventKey(tcell.KeyCtrlJ, 0, tcell.ModNone), true},
		{"ctrl+j", tcell.NewEventKey(tcell.KeyRune, 'j', tcell.ModCtrl), true}, // kitty protocol
		{"ctrl+j", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), false},
		{"enter", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), true},
		{"enter", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModShift), false},
		{"shift+enter", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModShift), true},
		{"alt+enter", tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModAlt), true},
		{"alt+1", tcell.NewEventKey(tcell.KeyRune, '1', tcell.ModAlt), true},
		{"alt+1", tcell.NewEventKey(tcell.KeyRune, '1', tcell.ModNone), false},
		{"G", tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModShift), true},
		{"g", tcell.NewEventKey(tcell.KeyRune, 'G', tcell.ModNone), false},
		{"shift+tab", tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModShift), true},
		{"tab", tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone), true},
		{"ctrl+c", tcell.NewEventKey(tcell.KeyCtrlC, 'c', tcell.ModCtrl), true},
	}
	for _, tt := range tests {
		k, err := ParseKey(tt.key)
		if err != nil {
			t.Fatal(err)
		}
		if got := k.Matches(tt.ev); got != tt.want {
			t.Errorf("%s matches %s = %v, want %v", tt.key, tt.ev.Name(), got, tt.want)
		}
	}
}

func TestKeyMapLookupByContext(t *testing.T) {
	km := DefaultKeyMap()
	z := tcell.NewEventKey(tcell.KeyRune, 'z', tcell.ModNone)
	if _, ok := km.Lookup([]Context{CtxInput, CtxGlobal}, z); ok {
		t.Error("z is bound in the input box: it must type a z")
	}
	if a, _ := km.Lookup([]Context{CtxList, CtxPanes, CtxGlobal}, z); a != ActZoom {
		t.Errorf("z in a pane = %q", a)
	}
	y := tcell.NewEventKey(tcell.KeyRune, 'y', tcell.ModNone)
	if a, _ := km.Lookup([]Context{CtxApprovals, CtxList, CtxPanes, CtxGlobal}, y); a != ActAllowOnce {
		t.Errorf("y in approvals = %q", a)
	}
	enter := tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
	if a, _ := km.Lookup([]Context{CtxInput, CtxGlobal}, enter); a != ActSend {
		t.Errorf("Enter in input = %q", a)
	}
	for _, ev := range []*tcell.EventKey{tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModShift),
		tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModAlt), tcell.NewEventKey(tcell.KeyCtrlJ, 0, tcell.ModNone)} {
		if a, _ := km.Lookup([]Context{CtxInput, CtxGlobal}, ev); a != ActNewline {
			t.Errorf("%s in input = %q, want newline", ev.Name(), a)
		}
	}
}

func TestKeyMapOverride(t *testing.T) {
	km := DefaultKeyMap()
	if err := km.Override("newline", "ctrl+n, alt+enter"); err != nil {
		t.Fatal(err)
	}
	if got := km.KeysOf(ActNewline); got != "Ctrl+N/Alt+Enter" {
		t.Errorf("newline keys = %q", got)
	}
	if a, _ := km.Lookup([]Context{CtxInput}, tcell.NewEventKey(tcell.KeyCtrlJ, 0, tcell.ModNone)); a == ActNewline {
		t.Error("the old key still works after the override")
	}
	if err := km.Override("zoom", "y"); err == nil || !strings.Contains(err.Error(), "approve.once") {
		t.Errorf("conflicting override: %v", err)
	}
	if err := km.Override("send", "y"); err != nil { // input and approvals never overlap
		t.Errorf("override in another context: %v", err)
	}
	if err := km.Override("nosuch", "x"); err == nil {
		t.Error("unknown action accepted")
	}
	if err := km.Override("zoom", "ctrl+1"); err == nil {
		t.Error("bad key accepted")
	}
}

func TestHelpTextsComeFromTheTable(t *testing.T) {
	km := DefaultKeyMap()
	bar := strings.Join(km.HelpBar([]Context{CtxInput, CtxGlobal}), " | ")
	for _, want := range []string{"Enter send", "Shift+Enter new line", "Esc cancel the running turn", "Ctrl+C quit", "Tab focus"} {
		if !strings.Contains(bar, want) {
			t.Errorf("help bar %q lacks %q", bar, want)
		}
	}
	if strings.Contains(bar, "allow once") {
		t.Errorf("input help bar shows approval keys: %q", bar)
	}
	_ = km.Override("approve.once", "o")
	help := strings.Join(km.HelpLines(), "\n")
	if !strings.Contains(help, "o ") || !strings.Contains(help, "allow once") || !strings.Contains(help, "Shift+Enter/Alt+Enter/Ctrl+J") {
		t.Errorf("help screen:\n%s", help)
	}
}
