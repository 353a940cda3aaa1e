package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// Key is one key chord: a tcell key code (KeyRune for characters), the rune
// for KeyRune, and modifiers. Ctrl+letter is its control code (KeyCtrlJ);
// Shift+Tab is KeyBacktab; Shift+letter is the capital letter.
type Key struct {
	Code tcell.Key
	Rune rune
	Mod  tcell.ModMask
}

// namedKeys maps lower-case key names to codes.
var namedKeys = map[string]tcell.Key{
	"enter": tcell.KeyEnter, "return": tcell.KeyEnter, "esc": tcell.KeyEscape, "escape": tcell.KeyEscape,
	"tab": tcell.KeyTab, "backtab": tcell.KeyBacktab, "backspace": tcell.KeyBackspace,
	"delete": tcell.KeyDelete, "del": tcell.KeyDelete, "insert": tcell.KeyInsert, "ins": tcell.KeyInsert,
	"home": tcell.KeyHome, "end": tcell.KeyEnd, "pgup": tcell.KeyPgUp, "pageup": tcell.KeyPgUp,
	"pgdn": tcell.KeyPgDn, "pagedown": tcell.KeyPgDn, "up": tcell.KeyUp, "down": tcell.KeyDown,
	"left": tcell.KeyLeft, "right": tcell.KeyRight,
	"f1": tcell.KeyF1, "f2": tcell.KeyF2, "f3": tcell.KeyF3, "f4": tcell.KeyF4, "f5": tcell.KeyF5,
	"f6": tcell.KeyF6, "f7": tcell.KeyF7, "f8": tcell.KeyF8, "f9": tcell.KeyF9, "f10": tcell.KeyF10,
	"f11": tcell.KeyF11, "f12": tcell.KeyF12,
}

// keyNames is how String spells named keys.
var keyNames = map[tcell.Key]string{
	tcell.KeyEnter: "Enter", tcell.KeyEscape: "Esc", tcell.KeyTab: "Tab", tcell.KeyBacktab: "Shift+Tab",
	tcell.KeyBackspace: "Backspace", tcell.KeyDelete: "Del", tcell.KeyInsert: "Ins", tcell.KeyHome: "Home",
	tcell.KeyEnd: "End", tcell.KeyPgUp: "PgUp", tcell.KeyPgDn: "PgDn", tcell.KeyUp: "↑", tcell.KeyDown: "↓",
	tcell.KeyLeft: "←", tcell.KeyRight: "→",
}

// ParseKeys parses key names separated by spaces or commas.
func ParseKeys(s string) ([]Key, error) {
	var out []Key
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, err := ParseKey(f)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// ParseKey parses one key chord: modifiers ("ctrl", "alt" or "meta", "shift")
// joined by "+" to a key — a name (enter, esc, tab, space, pgup, f1, ...) or
// one character ("j", "G", "?", "+"). Examples: "ctrl+j", "alt+1",
// "shift+enter", "G". Names are case-insensitive; single characters are not.
func ParseKey(s string) (Key, error) {
	orig := s
	var mod tcell.ModMask
	for {
		i := strings.IndexByte(s, '+')
		if i <= 0 || i == len(s)-1 {
			break
		}
		switch strings.ToLower(s[:i]) {
		case "ctrl", "control", "c":
			mod |= tcell.ModCtrl
		case "alt", "meta", "opt", "option", "m":
			mod |= tcell.ModAlt
		case "shift", "s":
			mod |= tcell.ModShift
		default:
			return Key{}, fmt.Errorf("keys: unknown modifier %q in %q", s[:i], orig)
		}
		s = s[i+1:]
	}
	if s == "" {
		return Key{}, fmt.Errorf("keys: empty key in %q", orig)
	}
	if utf8.RuneCountInString(s) == 1 {
		r, _ := utf8.DecodeRuneInString(s)
		return charKey(r, mod, orig)
	}
	name := strings.ToLower(s)
	if name == "space" {
		return charKey(' ', mod, orig)
	}
	code, ok := namedKeys[name]
	if !ok {
		return Key{}, fmt.Errorf("keys: unknown key %q in %q", s, orig)
	}
	if code == tcell.KeyTab && mod&tcell.ModShift != 0 {
		code, mod = tcell.KeyBacktab, mod&^tcell.ModShift
	}
	return Key{Code: code, Mod: mod}, nil
}

// charKey is the chord of a character with modifiers.
func charKey(r rune, mod tcell.ModMask, orig string) (Key, error) {
	if mod&tcell.ModCtrl != 0 {
		l := r | 0x20 // lower case
		if l < 'a' || l > 'z' {
			return Key{}, fmt.Errorf("keys: only ctrl+letter is supported, got %q", orig)
		}
		return Key{Code: tcell.KeyCtrlA + tcell.Key(l-'a'), Mod: mod &^ tcell.ModShift}, nil
	}
	if mod&tcell.ModShift != 0 && r >= 'a' && r <= 'z' {
		r -= 'a' - 'A'
	}
	return Key{Code: tcell.KeyRune, Rune: r, Mod: mod &^ tcell.ModShift}, nil
}

// Matches reports whether a key event is this chord. Shift is ignored for
// characters (it is in the rune already); Ctrl is ignored for control codes,
// which terminals send with or without it.
func (k Key) Matches(ev *tcell.EventKey) bool {
	mod := ev.Modifiers() &^ tcell.ModMeta
	if ev.Modifiers()&tcell.ModMeta != 0 {
		mod |= tcell.ModAlt
	}
	if k.Code == tcell.KeyRune {
		return ev.Key() == tcell.KeyRune && ev.Rune() == k.Rune && mod&^tcell.ModShift == k.Mod
	}
	if ev.Key() != k.Code {
		return false
	}
	if isControlCode(k.Code) {
		mod &^= tcell.ModCtrl | tcell.ModShift
		return mod == k.Mod&^tcell.ModCtrl
	}
	return mod == k.Mod
}

// isControlCode reports whether c is a Ctrl+letter code that is not also a
// key of its own (Tab, Enter, Backspace).
func isControlCode(c tcell.Key) bool {
	switch c {
	case tcell.KeyTab, tcell.KeyEnter, tcell.KeyBackspace, tcell.KeyEscape:
		return false
	}
	return c >= tcell.KeyCtrlA && c <= tcell.KeyCtrlZ
}

// String spells the chord for help texts: "Ctrl+J", "Alt+Enter", "G", "?".
func (k Key) String() string {
	var b strings.Builder
	if k.Mod&tcell.ModCtrl != 0 || isControlCode(k.Code) {
		b.WriteString("Ctrl+")
	}
	if k.Mod&tcell.ModAlt != 0 {
		b.WriteString("Alt+")
	}
	if k.Mod&tcell.ModShift != 0 {
		b.WriteString("Shift+")
	}
	switch {
	case k.Code == tcell.KeyRune && k.Rune == ' ':
		b.WriteString("Space")
	case k.Code == tcell.KeyRune:
		b.WriteRune(k.Rune)
	case isControlCode(k.Code):
		b.WriteRune(rune('A' + k.Code - tcell.KeyCtrlA))
	case k.Code >= tcell.KeyF1 && k.Code <= tcell.KeyF64:
		fmt.Fprintf(&b, "F%d", k.Code-tcell.KeyF1+1)
	default:
		if n, ok := keyNames[k.Code]; ok {
			b.WriteString(n)
		} else {
			fmt.Fprintf(&b, "key%d", k.Code)
		}
	}
	return b.String()
}
