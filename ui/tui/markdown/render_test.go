package markdown

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// texts returns the lines' text.
func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.String()
	}
	return out
}

// styleOf returns the style of the first segment containing sub.
func styleOf(t *testing.T, lines []Line, sub string) tcell.Style {
	t.Helper()
	for _, l := range lines {
		for _, s := range l.Segments {
			if strings.Contains(s.Text, sub) {
				return s.Style
			}
		}
	}
	t.Fatalf("%q not found in %q", sub, texts(lines))
	return tcell.StyleDefault
}

func fg(st tcell.Style) tcell.Color { f, _, _ := st.Decompose(); return f }

func attrs(st tcell.Style) tcell.AttrMask { _, _, a := st.Decompose(); return a }

func TestHeadingsAndEmphasis(t *testing.T) {
	th := themes.Dark()
	lines := Render("# Title\n\n## Sub\n\nplain *em* **strong** ***both*** `code` ~~gone~~ snake_case_name", 80, th)
	want := []string{"Title", "", "Sub", "", "plain em strong both code gone snake_case_name"}
	if got := texts(lines); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q want %q", got, want)
	}
	h1 := styleOf(t, lines, "Title")
	if fg(h1) != th.Accent || attrs(h1)&tcell.AttrBold == 0 || attrs(h1)&tcell.AttrUnderline == 0 {
		t.Errorf("h1 style %v", h1)
	}
	if a := attrs(styleOf(t, lines, "Sub")); a&tcell.AttrBold == 0 || a&tcell.AttrUnderline != 0 {
		t.Errorf("h2 attrs %v", a)
	}
	if a := attrs(styleOf(t, lines, "em")); a&tcell.AttrItalic == 0 || a&tcell.AttrBold != 0 {
		t.Errorf("em attrs %v", a)
	}
	if a := attrs(styleOf(t, lines, "strong")); a&tcell.AttrBold == 0 || a&tcell.AttrItalic != 0 {
		t.Errorf("strong attrs %v", a)
	}
	if a := attrs(styleOf(t, lines, "both")); a&tcell.AttrBold == 0 || a&tcell.AttrItalic == 0 {
		t.Errorf("both attrs %v", a)
	}
	if c := fg(styleOf(t, lines, "code")); c != th.Warning {
		t.Errorf("inline code colour %v, want %v", c, th.Warning)
	}
	if a := attrs(styleOf(t, lines, "gone")); a&tcell.AttrStrikeThrough == 0 {
		t.Errorf("strike attrs %v", a)
	}
	if a := attrs(styleOf(t, lines, "snake_case_name")); a != 0 {
		t.Errorf("snake_case must stay plain, attrs %v", a)
	}
}

func TestInlineEdgeCases(t *testing.T) {
	th := themes.Dark()
	cases := map[string]string{
		"a * b * c":                    "a * b * c",
		"2*3*4":                        "2*3*4",
		"`a*b*c` and *x*":              "a*b*c and x",
		"\\*not em\\*":                 "*not em*",
		"``code with ` tick``":         "code with ` tick",
		"[text](https://x.io)":         "text (https://x.io)",
		"[https://x.io](https://x.io)": "https://x.io",
		"![alt](img.png)":              "[image: alt]",
		"<https://x.io>":               "https://x.io",
		"**bold *it* more**":           "bold it more",
		"unclosed **bold":              "unclosed **bold",
	}
	for src, want := range cases {
		if got := strings.Join(texts(Render(src, 80, th)), "|"); got != want {
			t.Errorf("%q: got %q want %q", src, got, want)
		}
	}
}

func TestLists(t *testing.T) {
	src := "- one\n- two\n  - nested\n    more\n- [ ] todo\n- [x] done\n\n1. first\n2. second\n10) tenth"
	got := texts(Render(src, 40, themes.Dark()))
	want := []string{"• one", "• two", "  ◦ nested more", "☐ todo", "☑ done", "", "1. first", "2. second", "10) tenth"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Continuation lines of a wrapped item align with its text.
	got = texts(Render("- alpha beta gamma delta", 12, themes.Dark()))
	want = []string{"• alpha beta", "  gamma", "  delta"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestQuoteRuleTable(t *testing.T) {
	got := texts(Render("> quoted words here\n\n---\n\n| a | bb |\n|---|--:|\n| xyz | 1 |", 12, themes.Dark()))
	want := []string{"│ quoted", "│ words here", "", "────────────", "", "a   │ bb", "────┼───", "xyz │  1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestCodeFenceHighlighted(t *testing.T) {
	th := themes.Dark()
	src := "```go\nfunc main() {\n\treturn \"a very long string literal that will not fit\"\n}\n```"
	lines := Render(src, 30, th)
	got := texts(lines)
	want := []string{
		"│ func main() {",
		"│     return \"a very long stri",
		"↪ ng literal that will not fit",
		"↪ \"",
		"│ }",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	kw := th.SyntaxColor(chroma.Keyword)
	if c := fg(styleOf(t, lines, "func")); c != kw {
		t.Errorf("keyword colour %v, want %v", c, kw)
	}
	if c := fg(styleOf(t, lines, "a very")); c != th.SyntaxColor(chroma.LiteralString) {
		t.Errorf("string colour %v", c)
	}
	if c := fg(styleOf(t, lines, "│")); c != th.Muted {
		t.Errorf("bar colour %v", c)
	}
}

func TestCodeFenceLexerByTagOnly(t *testing.T) {
	th := themes.Dark()
	goSrc := "func main() {}"
	for _, tag := range []string{"", "nosuchlanguage"} {
		lines := Render("```"+tag+"\n"+goSrc+"\n```", 40, th)
		if len(lines[0].Segments) != 2 || lines[0].Segments[1].Text != goSrc || lines[0].Segments[1].Style != th.Style(themes.TokenText) {
			t.Errorf("tag %q: content must be plain, got %+v", tag, lines[0].Segments)
		}
	}
	// A file extension works as a tag.
	lines := Render("```rs\nfn main() {}\n```", 40, th)
	if c := fg(styleOf(t, lines, "fn")); c != th.SyntaxColor(chroma.Keyword) {
		t.Errorf("rs tag: fn colour %v", c)
	}
	if lexerFor("rs") == nil || lexerFor("golang") == nil {
		t.Error("aliases and extensions must resolve")
	}
}

func TestUnclosedFenceStreams(t *testing.T) {
	th := themes.Dark()
	lines := Render("```go\nfunc f() {}\nfunc g", 40, th)
	if got := texts(lines); strings.Join(got, "|") != "│ func f() {}|│ func g" {
		t.Fatalf("got %q", got)
	}
	// The partial last line is plain; complete lines are highlighted.
	if c := fg(lines[0].Segments[1].Style); c != th.SyntaxColor(chroma.Keyword) {
		t.Errorf("complete line not highlighted: %v", c)
	}
	if len(lines[1].Segments) != 2 || lines[1].Segments[1].Style != th.Style(themes.TokenText) {
		t.Errorf("partial line must be plain: %+v", lines[1].Segments)
	}
}

func TestWideRunes(t *testing.T) {
	st := tcell.StyleDefault
	// 中文 is 4 cells, 🦀 2 cells: at width 7 "ab 中文" (7 cells) fits, the
	// crab goes to the next line.
	lines := Plain("ab 中文 🦀x", 7, st)
	if got := texts(lines); strings.Join(got, "|") != "ab 中文|🦀x" {
		t.Fatalf("got %q", got)
	}
	if w := lines[0].Width(); w != 7 {
		t.Errorf("width %d", w)
	}
	// CJK text without spaces breaks between ideographs.
	lines = Plain("中文中文中文", 5, st)
	if got := texts(lines); strings.Join(got, "|") != "中文|中文|中文" {
		t.Fatalf("got %q", got)
	}
	if StringWidth("🦀") != 2 || StringWidth("中") != 2 || StringWidth("é") != 1 {
		t.Error("widths")
	}
}

func TestNeverWiderThanWidth(t *testing.T) {
	th := themes.Dark()
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "word", "longerword", "中文", "🦀", "**b**", "`c`", "x_y", "supercalifragilisticexpialidocious", "-", "é"}
	for n := 0; n < 300; n++ {
		var b strings.Builder
		for k := rng.IntN(40); k >= 0; k-- {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(8) == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		src := b.String()
		w := 2 + rng.IntN(30)
		for _, l := range append(Render("- "+src, w, th), Plain(src, w, tcell.StyleDefault)...) {
			// The one allowed excess: a wide grapheme alone after the
			// indentation, when indentation leaves less than two cells.
			rest := strings.TrimLeft(l.String(), " •")
			if l.Width() > w && !(utf8.RuneCountInString(rest) == 1 && StringWidth(rest) == 2 && l.Width()-2 >= w-1) {
				t.Fatalf("width %d: line %q is %d cells (src %q)", w, l.String(), l.Width(), src)
			}
		}
	}
}

func TestWrapKeepsWordsAndIndent(t *testing.T) {
	got := texts(Plain("    indented text that wraps\nabcdefghijkl", 10, tcell.StyleDefault))
	want := []string{"    indent", "ed text", "that wraps", "abcdefghij", "kl"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q want %q", got, want)
	}
}

func TestPlainLaws(t *testing.T) {
	st := tcell.StyleDefault
	if Plain("", 10, st) != nil || len(Plain("\n", 10, st)) != 1 || len(Plain("a\n", 10, st)) != 1 {
		t.Fatal("empty/newline handling")
	}
	a, b := "one\n\ntwo\n", "three\nfour"
	whole := texts(Plain(a+b, 10, st))
	parts := append(texts(Plain(a, 10, st)), texts(Plain(b, 10, st))...)
	if strings.Join(whole, "|") != strings.Join(parts, "|") {
		t.Fatalf("%q != %q", whole, parts)
	}
	if got := texts(Plain("a\tb\x1b[31mred\x1b[0m\r\n", 20, st)); got[0] != "a   bred" {
		t.Fatalf("tabs/escapes: %q", got)
	}
}

func TestSplitterLaw(t *testing.T) {
	th := themes.Dark()
	src := "# Title\n\nPara one\ncontinues.\n\n- a\n- b\n\n- loose\n\n```go\nx := 1\n\nfunc f() {}\n```\n\n> quote\n\n1. x\n\n   indented para in item\n\nEnd *here*.\n\ntrailing"
	var sp Splitter
	seen := 0
	for i := 1; i <= len(src); i++ {
		k := sp.Advance(src[:i])
		if k == 0 || k == seen {
			continue
		}
		seen = k
		whole := Render(src, 30, th)
		head, tail := Render(src[:k], 30, th), Render(src[k:], 30, th)
		joined := append(append(append([]Line{}, head...), Line{}), tail...)
		if fmt.Sprint(joined) != fmt.Sprint(whole) {
			t.Fatalf("split at %d (%q) breaks the law:\n%q\n%q", k, src[k:min(k+10, len(src))], texts(joined), texts(whole))
		}
	}
	if seen == 0 {
		t.Fatal("no split points found")
	}
	// Never inside a fence.
	var s2 Splitter
	if k := s2.Advance("```\na\n\nb\n"); k != 0 {
		t.Fatalf("split inside a fence at %d", k)
	}
}

func TestNoColor(t *testing.T) {
	th := themes.Dark()
	th.NoColor = true
	lines := Render("# H\n\n*e* `c` [l](u)\n\n```go\nfunc f() {}\n```", 40, th)
	for _, l := range lines {
		for _, s := range l.Segments {
			f, bg, _ := s.Style.Decompose()
			if f != tcell.ColorDefault || bg != tcell.ColorDefault {
				t.Fatalf("segment %q has colours %v/%v", s.Text, f, bg)
			}
		}
	}
	if a := attrs(styleOf(t, lines, "H")); a&tcell.AttrBold == 0 {
		t.Error("headings stay bold without colour")
	}
	if got := texts(lines)[2]; got != "e `c` l (u)" {
		t.Errorf("inline code keeps its backticks without colour: %q", got)
	}
}

func TestSanitize(t *testing.T) {
	if got := Sanitize("a\x1b]0;title\x07b\x1b[1;32mc\x08d\u0085e"); got != "abcde" {
		t.Fatalf("%q", got)
	}
	s := "clean text"
	if Sanitize(s) != s {
		t.Fatal("clean text changed")
	}
}
