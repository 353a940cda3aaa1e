package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeOutput(t *testing.T) {
	tests := []struct {
		name, in, want string
		note           []string // substrings of the note; nil: no note
	}{
		{name: "plain", in: "hello\tworld\n", want: "hello\tworld\n"},
		{name: "unicode kept", in: "héllo — 世界 🎉\n", want: "héllo — 世界 🎉\n"},
		{name: "colours removed silently", in: "\x1b[1;31mred\x1b[0m ok\x1b[K\n", want: "red ok\n"},
		{name: "OSC title and hyperlink removed", in: "\x1b]0;title\x07a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n", want: "alink\n"},
		{name: "charset and keypad sequences removed", in: "\x1b(Bx\x1b=y\x1b7z", want: "xyz"},
		{name: "CRLF becomes LF silently", in: "a\r\nb\r\n", want: "a\nb\n"},
		{name: "NUL escaped", in: "a\x00b", want: `a\x00b`, note: []string{"1 control byte shown as \\xNN"}},
		{name: "lone CR escaped", in: "10%\r20%\r", want: `10%\x0d20%\x0d`, note: []string{"2 control bytes"}},
		{name: "bell, backspace, DEL", in: "\x07\x08\x7f", want: `\x07\x08\x7f`, note: []string{"3 control bytes"}},
		{name: "run of NULs counted", in: "x" + strings.Repeat("\x00", 512) + "y", want: `x\x00<×512>y`, note: []string{"512 control bytes", "looks binary"}},
		{name: "short run written out", in: "\x01\x01\x01", want: `\x01\x01\x01`, note: []string{"3 control bytes"}},
		{name: "invalid UTF-8 run is one U+FFFD", in: "a\xff\xfe\xfdb\xc3", want: "a\uFFFDb\uFFFD", note: []string{"2 invalid UTF-8 sequences replaced with U+FFFD"}},
		{name: "C1 control escaped", in: "a\u0085b\u009b", want: `a\u0085b\u009b`, note: []string{"2 control bytes"}},
		{name: "ANSI mentioned when something else changed", in: "\x1b[32mok\x1b[0m\x00", want: `ok\x00`, note: []string{"1 control byte", "ANSI escape sequences removed"}},
		{name: "lone ESC escaped", in: "a\x1b", want: `a\x1b`, note: []string{"1 control byte"}},
		{name: "unterminated OSC keeps the rest", in: "\x1b]0;never ends", want: `\x1b]0;never ends`, note: []string{"1 control byte"}},
		{name: "cut CSI escaped", in: "\x1b[12", want: `\x1b[12`, note: []string{"1 control byte"}},
		{name: "empty", in: "", want: ""},
		{name: "bidi override shown", in: "safe\u202Eexe.txt\u202C", want: "safe⟦U+202E⟧exe.txt⟦U+202C⟧", note: []string{"2 invisible format characters shown as ⟦U+XXXX⟧"}},
		{name: "every bidi embedding, override and isolate", in: "\u202A\u202B\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C", want: "⟦U+202A⟧⟦U+202B⟧⟦U+202D⟧⟦U+2066⟧⟦U+2067⟧⟦U+2068⟧⟦U+2069⟧⟦U+200E⟧⟦U+200F⟧⟦U+061C⟧", note: []string{"10 invisible format characters"}},
		{name: "zero-width space, BOM, word joiner, soft hyphen", in: "a\u200Bb\uFEFFc\u2060d\u00ADe", want: "a⟦U+200B⟧b⟦U+FEFF⟧c⟦U+2060⟧d⟦U+00AD⟧e", note: []string{"4 invisible"}},
		{name: "tag characters smuggling ASCII", in: "ok\U000E0069\U000E0067", want: "ok⟦U+E0069⟧⟦U+E0067⟧", note: []string{"2 invisible"}},
		{name: "line and paragraph separators", in: "a\u2028b\u2029", want: "a⟦U+2028⟧b⟦U+2029⟧", note: []string{"2 invisible"}},
		{name: "run of one invisible counted", in: strings.Repeat("\u200B", 9), want: "⟦U+200B⟧<×9>", note: []string{"9 invisible"}},
		{name: "joiners in emoji and scripts kept", in: "👨\u200D👩\u200D👧 می\u200Cخواهم", want: "👨\u200D👩\u200D👧 می\u200Cخواهم"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, note := SafeOutput(tt.in)
			if got != tt.want {
				t.Errorf("SafeOutput(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if tt.note == nil && note != "" {
				t.Errorf("unexpected note %q", note)
			}
			for _, n := range tt.note {
				if !strings.Contains(note, n) {
					t.Errorf("note %q lacks %q", note, n)
				}
			}
			if note != "" && strings.Contains(note, "\n") {
				t.Errorf("note is not one line: %q", note)
			}
			assertTranscriptSafe(t, got)
		})
	}
}

// assertTranscriptSafe fails unless s is valid UTF-8 without control
// characters other than tab and newline.
func assertTranscriptSafe(t testing.TB, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not valid UTF-8: %q", s)
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("control character %U in %q", r, s)
		}
		if invisibleRune(r) {
			t.Fatalf("invisible format character %U in %q", r, s)
		}
	}
}

// FuzzSafeOutput holds SafeOutput to its promise on any input: valid UTF-8,
// no control characters but tab and newline, at most six times as long.
func FuzzSafeOutput(f *testing.F) {
	for _, s := range []string{"a\x00b", "\x1b[31mx", "\xff\xfe", "\u0085", "\x1b]0;t\x07", "\r\n\r", "\u202e\u2066", "\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, _ := SafeOutput(s)
		assertTranscriptSafe(t, got)
		if len(got) > 6*len(s) {
			t.Fatalf("grew from %d to %d bytes", len(s), len(got))
		}
	})
}

// TestBashBinaryOutput cats a real binary (the test binary itself) and a
// file of every byte value through Bash: the result is bounded, valid UTF-8
// without control bytes, and says what was changed.
func TestBashBinaryOutput(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for policyName, policy := range bashPolicies() {
		t.Run(policyName, func(t *testing.T) {
			env, root := newTestEnv(t)
			env.Sandbox = policy
			var all []byte
			for i := range 256 {
				all = append(all, byte(i))
			}
			if err := os.WriteFile(filepath.Join(root, "bytes.bin"), all, 0o644); err != nil {
				t.Fatal(err)
			}
			bin, err := os.ReadFile(exe)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "prog"), bin, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []string{"cat bytes.bin", "cat prog", "printf 'a\\033[31mred\\033[0m\\000z\\n'"} {
				res, err := runTool(t, Bash{}, env, BashInput{Command: cmd})
				if err != nil {
					t.Fatal(err)
				}
				assertTranscriptSafe(t, res.Output)
				if n := utf8.RuneCountInString(res.Output); n > BashMaxOutputChars+1000 {
					t.Errorf("%s: %d characters, want about %d at most", cmd, n, BashMaxOutputChars)
				}
				if !strings.Contains(res.Output, "[output made safe for the transcript:") {
					t.Errorf("%s: no note in %q", cmd, res.Output[max(0, len(res.Output)-300):])
				}
			}
			res, _ := runTool(t, Bash{}, env, BashInput{Command: "printf 'a\\033[31mred\\033[0m\\000z\\n'"})
			if !strings.HasPrefix(res.Output, `ared\x00z`) {
				t.Errorf("printf output = %q", res.Output)
			}
		})
	}
}
