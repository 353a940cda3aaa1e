package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

func TestBlocksRender(t *testing.T) {
	v := New(dark())
	v.Upsert(Block{ID: "u", Kind: KindUser, Text: "fix the bug", Done: true})
	v.Upsert(Block{ID: "r", Kind: KindReasoning, Text: "hmm", Collapsed: true, Done: true})
	v.Upsert(Block{ID: "t1", Kind: KindTool, Title: "Read main.go  12ms", Status: StatusDone, Collapsed: true, Done: true})
	v.Upsert(Block{ID: "t2", Kind: KindTool, Title: "Bash rm x", Status: StatusApproval, Collapsed: true})
	v.Upsert(Block{ID: "t3", Kind: KindTool, Title: "Bash ls", Status: StatusDenied, Collapsed: true})
	v.Upsert(Block{ID: "a", Kind: KindAssistant, Text: "Done."})
	v.Upsert(Block{ID: "e", Kind: KindError, Text: "provider failed", Done: true})
	s := newScreen(t, 50, 14)
	drawView(v, s)
	want := []string{
		"▌ fix the bug",
		"",
		"▸ Thinking",
		"",
		"✓ Read main.go  12ms",
		"◌ Bash rm x  awaiting approval",
		"⊘ Bash ls  denied",
		"",
		"  Done.",
		"",
		"✗ provider failed",
	}
	if got := rows(s)[:len(want)]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	th := dark()
	if _, st := cellAt(s, 0, 0); fg(st) != th.Accent {
		t.Errorf("user bar colour %v", fg(st))
	}
	if _, st := cellAt(s, 0, 4); fg(st) != th.Success {
		t.Errorf("done icon colour %v", fg(st))
	}
	if _, st := cellAt(s, 0, 5); fg(st) != th.Warning {
		t.Errorf("approval icon colour %v", fg(st))
	}
	if _, st := cellAt(s, 2, 2); fg(st) != th.Muted {
		t.Errorf("reasoning title must be muted: %v", fg(st))
	}
	if _, st := cellAt(s, 2, 10); fg(st) != th.Error {
		t.Errorf("error text colour %v", fg(st))
	}
}

func TestStatusIcons(t *testing.T) {
	want := map[string]string{StatusPending: "○", StatusApproval: "◌", StatusRunning: "◐", StatusDone: "✓", StatusFailed: "✗", StatusDenied: "⊘"}
	for st, icon := range want {
		if statusIcon(st) != icon {
			t.Errorf("%s: %s", st, statusIcon(st))
		}
	}
}

func TestMarkdownOnScreen(t *testing.T) {
	th := dark()
	v := New(th)
	v.Upsert(Block{ID: "a", Kind: KindAssistant, Done: true, Text: "# Plan\n\n- use `go vet`\n- **then** test\n\n```go\nfunc main() {}\n```"})
	s := newScreen(t, 40, 12)
	drawView(v, s)
	want := []string{"  Plan", "", "  • use go vet", "  • then test", "", "  │ func main() {}"}
	if got := rows(s)[:len(want)]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
	_, h := cellAt(s, 2, 0)
	if _, _, a := h.Decompose(); fg(h) != th.Accent || a&tcell.AttrBold == 0 {
		t.Errorf("heading style %v", h)
	}
	if _, st := cellAt(s, 8, 2); fg(st) != th.Warning {
		t.Errorf("inline code colour %v", fg(st))
	}
	if _, st := cellAt(s, 4, 3); func() tcell.AttrMask { _, _, a := st.Decompose(); return a }()&tcell.AttrBold == 0 {
		t.Errorf("strong not bold")
	}
	if c, st := cellAt(s, 4, 5); c != "f" || fg(st) != th.SyntaxColor(chroma.Keyword) {
		t.Errorf("code keyword %q %v", c, fg(st))
	}
}

func TestWideRunesOnScreen(t *testing.T) {
	v := New(dark())
	// Content width 10 (12 - gutter). Lines may break between ideographs
	// (UAX 14), so row 0 is filled to exactly 10 cells: "ab 中文 中".
	v.Upsert(Block{ID: "u", Kind: KindUser, Text: "ab 中文 中文🦀 x", Done: true})
	s := newScreen(t, 12, 4)
	drawView(v, s)
	if got := rows(s)[:2]; got[0] != "▌ ab 中文 中" || got[1] != "▌ 文🦀 x" {
		t.Fatalf("got %q", got)
	}
	// Wide runes take two cells; the second is an empty continuation cell.
	for _, c := range []struct {
		x, y int
		want string
	}{{5, 0, "中"}, {6, 0, ""}, {7, 0, "文"}, {10, 0, "中"}, {11, 0, ""}, {2, 1, "文"}, {4, 1, "🦀"}, {5, 1, ""}, {7, 1, "x"}} {
		if got, _ := cellAt(s, c.x, c.y); got != c.want {
			t.Errorf("cell (%d,%d) = %q, want %q", c.x, c.y, got, c.want)
		}
	}
}

func TestCollapseExpand(t *testing.T) {
	v := New(dark())
	out := make([]string, 300)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i)
	}
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash seq", Status: StatusDone, Text: strings.Join(out, "\n"), Collapsed: true, Done: true})
	s := newScreen(t, 40, 10)
	drawView(v, s)
	if got := strings.TrimSpace(screenText(s)); got != "✓ Bash seq" {
		t.Fatalf("collapsed: %q", got)
	}
	v.Toggle("t")
	v.Follow(false)
	v.mu.Lock()
	v.top, v.topRow = 0, 0
	v.mu.Unlock()
	drawView(v, s)
	if r := rows(s); r[0] != "✓ Bash seq" || r[1] != "│ line 0" {
		t.Fatalf("expanded: %q", r)
	}
	v.Follow(true)
	drawView(v, s)
	r := rows(s)
	if r[len(r)-1] != "│ … 100 more lines (200 of 300 shown)" || r[len(r)-2] != "│ line 199" {
		t.Fatalf("cap: %q", r)
	}
	v.Toggle("t")
	drawView(v, s)
	if got := strings.TrimSpace(screenText(s)); got != "✓ Bash seq" {
		t.Fatalf("collapsed again: %q", got)
	}
	// Blocks without a title line do not collapse.
	v.Upsert(Block{ID: "a", Kind: KindAssistant, Text: "hello"})
	v.Toggle("a")
	drawView(v, s)
	if findRow(s, "hello") < 0 {
		t.Fatal("assistant text must not collapse")
	}
}

func TestKeysSelectAndToggle(t *testing.T) {
	v := New(dark())
	v.Upsert(Block{ID: "u", Kind: KindUser, Text: "hi", Done: true})
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Read a.go", Status: StatusDone, Text: "content", Collapsed: true, Done: true})
	v.Upsert(Block{ID: "a", Kind: KindAssistant, Text: "ok", Done: true})
	s := newScreen(t, 30, 10)
	v.Focus(func(p tviewPrimitive) {})
	drawView(v, s)
	key := keySender(v)
	if _, ok := v.Selected(); ok {
		t.Fatal("nothing selected at first")
	}
	key(tcell.KeyRune, 'k')
	if b, _ := v.Selected(); b.ID != "a" {
		t.Fatalf("k selects the last block first, got %q", b.ID)
	}
	key(tcell.KeyRune, 'k')
	if b, _ := v.Selected(); b.ID != "t" {
		t.Fatalf("got %q", b.ID)
	}
	key(tcell.KeyEnter, 0)
	drawView(v, s)
	if findRow(s, "│ content") < 0 {
		t.Fatalf("Enter expands:\n%s", screenText(s))
	}
	// The selected block's title row is drawn on the selection colour.
	y := findRow(s, "Read a.go")
	if _, st := cellAt(s, 20, y); func() tcell.Color { _, bg, _ := st.Decompose(); return bg }() != dark().Selection {
		t.Error("selection not highlighted")
	}
	key(tcell.KeyRune, ' ')
	drawView(v, s)
	if findRow(s, "│ content") >= 0 {
		t.Fatal("space collapses")
	}
	key(tcell.KeyUp, 0)
	key(tcell.KeyUp, 0)
	if b, _ := v.Selected(); b.ID != "u" {
		t.Fatalf("up stops at the first block, got %q", b.ID)
	}
	key(tcell.KeyRune, 'j')
	key(tcell.KeyDown, 0)
	key(tcell.KeyDown, 0)
	if b, _ := v.Selected(); b.ID != "a" {
		t.Fatalf("down stops at the last block, got %q", b.ID)
	}
}

func TestNoColorView(t *testing.T) {
	th := themes.Dark()
	th.NoColor = true
	v := New(th)
	v.Upsert(Block{ID: "u", Kind: KindUser, Text: "hi", Done: true})
	v.Upsert(Block{ID: "t", Kind: KindTool, Title: "Bash", Status: StatusFailed, Done: true, Collapsed: true})
	v.Upsert(Block{ID: "a", Kind: KindAssistant, Text: "# H\n\n`x` **y**\n\n```go\nfunc f() {}\n```", Done: true})
	s := newScreen(t, 30, 12)
	drawView(v, s)
	cells, _, _ := s.GetContents()
	for i, c := range cells {
		f, bg, _ := c.Style.Decompose()
		if f != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell %d %q has colours %v/%v", i, string(c.Runes), f, bg)
		}
	}
	if findRow(s, "`x` y") < 0 {
		t.Fatalf("screen:\n%s", screenText(s))
	}
}

func TestThemesDifferOnScreen(t *testing.T) {
	draw := func(th *themes.Theme) []tcell.SimCell {
		v := New(th)
		v.Upsert(Block{ID: "a", Kind: KindAssistant, Text: "# H\n\ntext `code`", Done: true})
		s := newScreen(t, 20, 4)
		drawView(v, s)
		cells, _, _ := s.GetContents()
		return cells
	}
	d, l := draw(themes.Dark()), draw(themes.Light())
	same := 0
	for i := range d {
		if string(d[i].Runes) != string(l[i].Runes) {
			t.Fatal("content must not depend on the theme")
		}
		if d[i].Style == l[i].Style && len(d[i].Runes) > 0 && string(d[i].Runes) != " " {
			same++
		}
	}
	if same != 0 {
		t.Fatalf("%d text cells look the same in light and dark", same)
	}
}
