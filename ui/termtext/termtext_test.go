package termtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestClean is the table of what the red team's model sent through the command
// line's outputs, and what a person must see of it.
func TestClean(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"wide and emoji kept", "日本語 🙂 👩‍💻 é", "日本語 🙂 👩‍💻 é"},
		{"newline and tab kept", "a\n\tb\n", "a\n\tb\n"},
		{"OSC 0 title BEL", "a\x1b]0;pwned\x07b", "ab"},
		{"OSC 2 title ST", "a\x1b]2;pwned\x1b\\b", "ab"},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"OSC 52 clipboard BEL", "x\x1b]52;c;cm0gLXJmIH4=\x07y", "xy"},
		{"OSC 52 clipboard ST", "x\x1b]52;c;cm0gLXJmIH4=\x1b\\y", "xy"},
		{"CSI 6n cursor position query", "a\x1b[6nb", "ab"},
		{"CSI c device attributes", "a\x1b[cb\x1b[>0c", "ab"},
		{"SGR colour", "\x1b[1;31mred\x1b[0m", "red"},
		{"cursor movement", "\x1b[2J\x1b[H\x1b[10;20Hx", "x"},
		{"bracketed paste markers", "\x1b[200~rm -rf /\x1b[201~", "rm -rf /"},
		{"DCS ST", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"DCS tmux passthrough", "a\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\b", "ab"},
		{"APC PM SOS", "a\x1b_apc\x1b\\b\x1b^pm\x07c\x1bXsos\x1b\\d", "abcd"},
		{"bare ESC at end", "abc\x1b", "abc"},
		{"ESC two-byte", "a\x1b7b\x1bcc\x1b(Bd", "abcd"},
		{"8-bit CSI rune", "a\u009b6nb", "ab"},
		{"8-bit OSC rune ST", "a\u009d0;t\u009cb", "ab"},
		{"8-bit OSC rune BEL", "a\u009d52;c;eA==\x07b", "ab"},
		{"8-bit CSI lone byte", "a\x9b6nb", "ab"},
		{"other C1", "a\u0085b\u008dc", "abc"},
		{"CR overwrite", "safe\rrm -rf ~", "saferm -rf ~"},
		{"CRLF becomes LF", "a\r\nb\r\n", "a\nb\n"},
		{"backspace and BEL and NUL", "a\bb\x07c\x00d\x7fe", "abcde"},
		{"unterminated OSC ends at newline", "a\x1b]0;title\nvisible", "a\nvisible"},
		{"unterminated CSI ends at newline", "a\x1b[12\nb", "a\nb"},
		{"bidi override shown", "evil\u202etxt.exe", "evil⟦U+202E⟧txt.exe"},
		{"bidi isolates shown", "a\u2066b\u2069c\u202ad", "a⟦U+2066⟧b⟦U+2069⟧c⟦U+202A⟧d"},
		{"implicit marks kept", "שלום\u200fabc\u200e", "שלום\u200fabc\u200e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Clean(tc.in)
			if got != tc.want {
				t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if bad := unsafeByte(got); bad >= 0 {
				t.Errorf("Clean(%q) = %q keeps a control at byte %d", tc.in, got, bad)
			}
		})
	}
}

// unsafeByte is the index of the first ESC, other C0 (not LF/TAB), DEL or C1
// (rune or byte) in s, or -1.
func unsafeByte(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) || (r == utf8.RuneError && n == 1 && s[i] <= 0x9f) {
			return i
		}
		i += n
	}
	return -1
}

// TestCleanNoAlloc: text without controls comes back as is.
func TestCleanNoAlloc(t *testing.T) {
	s := strings.Repeat("plain text 日本 ", 50)
	if n := testing.AllocsPerRun(100, func() { _ = Clean(s) }); n != 0 {
		t.Errorf("Clean of clean text allocated %v times", n)
	}
}

// TestCleanAnyBytes: whatever bytes come in, none a terminal acts on go out.
func TestCleanAnyBytes(t *testing.T) {
	seed := []byte("\x1b]0;t\x07\x1b[6n\u009b\x9b\r\xc2\x9d\x1bP\x1b\\ok日")
	for i := 0; i < 2000; i++ {
		b := make([]byte, 0, 40)
		for j := 0; j < 40; j++ {
			b = append(b, seed[(i*7+j*13+i*j)%len(seed)])
		}
		if got := Clean(string(b)); unsafeByte(got) >= 0 {
			t.Fatalf("Clean(%q) = %q", b, got)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("a\tb\n\x1b[31mc\x1b[0m  d"); got != "a b c d" {
		t.Errorf("Line = %q", got)
	}
}

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	n, err := w.Write([]byte("a\x1b]0;x\x07b\n"))
	if err != nil || n != 9 || buf.String() != "ab\n" {
		t.Errorf("Write = %d, %v; wrote %q", n, err, buf.String())
	}
	if NewWriter(w) != w {
		t.Error("NewWriter wrapped a Writer twice")
	}
}

// TestJSONKeepsNoControl: encoding/json escapes ESC and the C0 controls but
// writes the C1 controls raw; EscapeJSON escapes those, and the value decodes
// to the same string.
func TestJSONKeepsNoControl(t *testing.T) {
	in := "a\x1b]0;t\x07b\x1b[6n\r\u009b6n\u0085c"
	raw, err := json.Marshal(map[string]string{"text": in})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(raw, 0x1b) >= 0 || bytes.IndexByte(raw, '\r') >= 0 {
		t.Fatalf("encoding/json wrote ESC or CR raw: %q", raw)
	}
	if !bytes.Contains(raw, []byte("\u009b")) {
		t.Fatalf("encoding/json escaped U+009B itself (%q): EscapeJSON is not needed", raw)
	}
	out := EscapeJSON(string(raw))
	if unsafeByte(out) >= 0 {
		t.Fatalf("EscapeJSON kept a control: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil || back["text"] != in {
		t.Fatalf("EscapeJSON changed the value: %q, %v", back["text"], err)
	}
}
