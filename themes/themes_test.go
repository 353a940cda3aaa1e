package themes

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

var tokens = []string{TokenText, TokenMuted, TokenAccent, TokenSuccess, TokenWarning, TokenError,
	TokenDiffAdded, TokenDiffRemoved, TokenDiffContext, TokenSelection}

func TestByName(t *testing.T) {
	for _, n := range []string{"dark", "light", " Light ", ""} {
		th, err := ByName(n)
		if err != nil || th == nil {
			t.Fatalf("%q: %v", n, err)
		}
	}
	if _, err := ByName("solarized"); err == nil {
		t.Fatal("unknown theme must fail")
	}
	a, _ := ByName("dark")
	a.Text = tcell.ColorRed
	if b, _ := ByName("dark"); b.Text == tcell.ColorRed {
		t.Fatal("ByName must return a fresh copy")
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	if th := FromEnv("light"); th.Name != "light" || th.NoColor {
		t.Fatalf("got %s noColor=%v", th.Name, th.NoColor)
	}
	if th := FromEnv("bogus"); th.Name != "dark" {
		t.Fatalf("fallback: %s", th.Name)
	}
	t.Setenv("NO_COLOR", "1")
	if th := FromEnv("light"); !th.NoColor {
		t.Fatal("NO_COLOR ignored")
	}
}

func TestLightAndDarkDiffer(t *testing.T) {
	d, l := Dark(), Light()
	for _, tok := range tokens {
		if d.Style(tok) == l.Style(tok) {
			t.Errorf("token %s: same style in both themes", tok)
		}
	}
	if d.SyntaxColor(chroma.Keyword) == l.SyntaxColor(chroma.Keyword) {
		t.Error("syntax colours must differ")
	}
}

func TestStyleTokens(t *testing.T) {
	th := Dark()
	if fg, _, _ := th.Style(TokenError).Decompose(); fg != th.Error {
		t.Errorf("error fg %v", fg)
	}
	if _, bg, _ := th.Style(TokenSelection).Decompose(); bg != th.Selection {
		t.Errorf("selection bg %v", bg)
	}
	if th.Style("nonsense") != th.Style(TokenText) {
		t.Error("unknown tokens fall back to text")
	}
}

func TestNoColorStyles(t *testing.T) {
	th := Dark()
	th.NoColor = true
	for _, tok := range tokens {
		fg, bg, _ := th.Style(tok).Decompose()
		if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Errorf("%s: colours %v/%v with NoColor", tok, fg, bg)
		}
	}
	if _, _, a := th.Style(TokenSelection).Decompose(); a&tcell.AttrReverse == 0 {
		t.Error("selection must stay visible (reverse)")
	}
	if _, _, a := th.Style(TokenMuted).Decompose(); a&tcell.AttrDim == 0 {
		t.Error("muted is dim without colour")
	}
	if th.SyntaxColor(chroma.Keyword) != tcell.ColorDefault {
		t.Error("syntax colour with NoColor")
	}
	cs := th.ChromaStyle()
	for _, tt := range []chroma.TokenType{chroma.Keyword, chroma.LiteralString, chroma.Comment, chroma.Background} {
		if e := cs.Get(tt); e.Colour.IsSet() || e.Background.IsSet() {
			t.Errorf("%v has colours in the NO_COLOR chroma style: %v", tt, e)
		}
	}
}

func TestSyntaxFallback(t *testing.T) {
	th := Dark()
	if th.SyntaxColor(chroma.LiteralStringDouble) != th.Syntax["LiteralString"] {
		t.Error("LiteralStringDouble must inherit LiteralString")
	}
	if th.SyntaxColor(chroma.Text) != th.Text {
		t.Error("unknown categories fall back to Text")
	}
}

func TestChromaStyleFromTokens(t *testing.T) {
	for _, th := range []*Theme{Dark(), Light()} {
		cs := th.ChromaStyle()
		for _, tt := range []chroma.TokenType{chroma.Keyword, chroma.NameFunction, chroma.LiteralString, chroma.Comment} {
			got := th.TcellStyle(cs.Get(tt), tcell.StyleDefault)
			if fg, _, _ := got.Decompose(); fg != th.SyntaxColor(tt) {
				t.Errorf("%s %v: chroma colour %v, token colour %v", th.Name, tt, fg, th.SyntaxColor(tt))
			}
		}
		if e := cs.Get(chroma.Comment); e.Italic != chroma.Yes {
			t.Error("comments italic")
		}
	}
}

func TestApplyToTview(t *testing.T) {
	saved := tview.Styles
	defer func() { tview.Styles = saved }()
	th := Light()
	th.ApplyToTview()
	if tview.Styles.PrimaryTextColor != th.Text || tview.Styles.BorderColor != th.Muted || tview.Styles.TitleColor != th.Accent {
		t.Fatalf("tview styles not derived: %+v", tview.Styles)
	}
	th.NoColor = true
	th.ApplyToTview()
	if tview.Styles.PrimaryTextColor != tcell.ColorDefault || tview.Styles.PrimitiveBackgroundColor != tcell.ColorDefault {
		t.Fatal("NO_COLOR must leave tview on default colours")
	}
}

// TestApplyToTviewSameThemeWritesNothing: applying the theme tview already
// has leaves tview.Styles unwritten, so a goroutine reading it meanwhile
// (another workbench's event loop) does not race (run under -race: the write
// the check skips is what the race detector reports).
func TestApplyToTviewSameThemeWritesNothing(t *testing.T) {
	th := Dark()
	th.ApplyToTview()
	want := tview.Styles
	stop, done := make(chan struct{}), make(chan tview.Theme)
	go func() {
		seen := tview.Styles // read once even if stop comes first
		for {
			select {
			case <-stop:
				done <- seen
				return
			default:
				seen = tview.Styles
			}
		}
	}()
	for i := 0; i < 100; i++ {
		Dark().ApplyToTview()
	}
	close(stop)
	if seen := <-done; seen != want {
		t.Fatalf("tview.Styles changed: %+v, want %+v", seen, want)
	}
}
