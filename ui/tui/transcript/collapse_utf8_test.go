package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUpsertKeepsTheUsersCollapseChoice: a tool block the person expanded
// stays expanded when its status changes (Upsert says Collapsed: true), and
// one they collapsed again stays collapsed; a block nobody toggled follows
// Upsert.
func TestUpsertKeepsTheUsersCollapseChoice(t *testing.T) {
	v := New(dark())
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash make", Status: StatusRunning, Text: "building", Collapsed: true})
	v.Upsert(Block{ID: "u", Kind: KindTool, Title: "Bash ls", Status: StatusRunning, Text: "a.go", Collapsed: true})
	s := newScreen(t, 40, 10)
	drawView(v, s)
	if findRow(s, "building") >= 0 {
		t.Fatalf("collapsed block shows its output:\n%s", screenText(s))
	}
	v.Toggle("t")
	drawView(v, s)
	if findRow(s, "building") < 0 {
		t.Fatalf("Toggle did not expand:\n%s", screenText(s))
	}
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash make  2.0s", Status: StatusDone, Text: "building\nok", Collapsed: true, Done: true})
	drawView(v, s)
	if findRow(s, "ok") < 0 || findRow(s, "✓ Bash make  2.0s") < 0 {
		t.Fatalf("the expanded block collapsed again on a status change:\n%s", screenText(s))
	}
	if v.entries[v.index["t"]].b.Collapsed {
		t.Error("Block.Collapsed reports collapsed")
	}
	v.Toggle("t")
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash make  2.0s", Status: StatusDone, Text: "building\nok\nmore", Collapsed: false, Done: true})
	drawView(v, s)
	if findRow(s, "building") >= 0 {
		t.Fatalf("the block the person collapsed was expanded by Upsert:\n%s", screenText(s))
	}
	v.Upsert(Block{ID: "u", Kind: KindTool, Title: "Bash ls", Status: StatusDone, Text: "a.go", Collapsed: false, Done: true})
	drawView(v, s)
	if findRow(s, "a.go") < 0 {
		t.Fatalf("an untoggled block ignores Upsert's Collapsed:\n%s", screenText(s))
	}
}

// TestStreamingSplitRunes: deltas that cut runes in two ("日本語" byte by
// byte, or in pieces of 2, 4, 5 bytes) never put a broken rune on screen,
// and the text ends whole, in markdown and in plain text.
func TestStreamingSplitRunes(t *testing.T) {
	src := "Hello 日本語 and **太字**, emoji 🎉 then ok\n\n次の段落 here"
	for _, kind := range []Kind{KindAssistant, KindNotice} {
		for _, size := range []int{1, 2, 4, 5} {
			v := New(dark())
			v.Upsert(Block{ID: "a", Kind: kind})
			s := newScreen(t, 24, 12)
			for i := 0; i < len(src); i += size {
				v.AppendText("a", src[i:min(i+size, len(src))])
				drawView(v, s)
				if text := screenText(s); strings.ContainsRune(text, utf8.RuneError) {
					t.Fatalf("%s, %d-byte deltas, after %d bytes: a broken rune on screen:\n%s", kind, size, i+size, text)
				}
			}
			text := strings.ReplaceAll(screenText(s), "\n", "")
			for _, want := range []string{"日本語", "太", "字", "🎉", "次の段落"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s, %d-byte deltas: %q missing:\n%s", kind, size, want, screenText(s))
				}
			}
			v.Upsert(Block{ID: "a", Kind: kind, Text: src, Done: true})
			drawView(v, s)
			if !strings.Contains(strings.ReplaceAll(screenText(s), "\n", ""), "日本語") {
				t.Errorf("%s: finished block lost its text:\n%s", kind, screenText(s))
			}
		}
	}
}

func TestCompleteRunes(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "abc": "abc", "日本": "日本", "日\xe6": "日", "日\xe6\x9c": "日", "a🎉"[:4]: "a",
		"a🎉": "a🎉", "\x9c": "\x9c", // a stray continuation byte is not an incomplete rune
	} {
		if got := completeRunes(in); got != want {
			t.Errorf("completeRunes(%q) = %q, want %q", in, got, want)
		}
	}
}
