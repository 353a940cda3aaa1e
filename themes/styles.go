package themes

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// Style token names accepted by (*Theme).Style.
const (
	TokenText        = "text"
	TokenMuted       = "muted"
	TokenAccent      = "accent"
	TokenSuccess     = "success"
	TokenWarning     = "warning"
	TokenError       = "error"
	TokenDiffAdded   = "diff.added"
	TokenDiffRemoved = "diff.removed"
	TokenDiffContext = "diff.context"
	TokenSelection   = "selection"
)

// Color returns the colour of a semantic token (see Style for the names),
// or tcell.ColorDefault when NoColor is set or the token is unknown.
func (t *Theme) Color(token string) tcell.Color {
	if t == nil || t.NoColor {
		return tcell.ColorDefault
	}
	switch token {
	case TokenText:
		return t.Text
	case TokenMuted:
		return t.Muted
	case TokenAccent:
		return t.Accent
	case TokenSuccess:
		return t.Success
	case TokenWarning:
		return t.Warning
	case TokenError:
		return t.Error
	case TokenDiffAdded:
		return t.DiffAdded
	case TokenDiffRemoved:
		return t.DiffRemoved
	case TokenDiffContext:
		return t.DiffContext
	case TokenSelection:
		return t.Selection
	}
	return tcell.ColorDefault
}

// Style returns the tcell style of a semantic token: "text", "muted",
// "accent", "success", "warning", "error", "diff.added", "diff.removed",
// "diff.context" or "selection". Unknown tokens give the "text" style.
//
// With NoColor every style has default colours; "muted" is dim, "accent"
// and "error" are bold and "selection" is reverse, so meaning survives
// without colour.
func (t *Theme) Style(token string) tcell.Style {
	base := tcell.StyleDefault
	if t == nil || t.NoColor {
		switch token {
		case TokenMuted:
			return base.Dim(true)
		case TokenAccent, TokenError:
			return base.Bold(true)
		case TokenSelection:
			return base.Reverse(true)
		}
		return base
	}
	base = base.Background(t.Background)
	switch token {
	case TokenSelection:
		return base.Foreground(t.Text).Background(t.Selection)
	case TokenText, TokenMuted, TokenAccent, TokenSuccess, TokenWarning, TokenError,
		TokenDiffAdded, TokenDiffRemoved, TokenDiffContext:
		return base.Foreground(t.Color(token))
	}
	return base.Foreground(t.Text)
}

// ApplyToTview sets the global tview.Styles from the tokens, so stock tview
// widgets (TextView, List, InputField, borders, titles) match the theme. With
// NoColor every colour is tcell.ColorDefault. Call it before building the
// widgets. tview reads its Styles without a lock, so ApplyToTview writes them
// only when they differ: a second workbench of the same theme (a test's) does
// not race the first one's event loop.
func (t *Theme) ApplyToTview() {
	c := func(token string) tcell.Color { return t.Color(token) }
	bg := tcell.ColorDefault
	if !t.NoColor {
		bg = t.Background
	}
	want := tview.Theme{
		PrimitiveBackgroundColor:    bg,
		ContrastBackgroundColor:     c(TokenSelection),
		MoreContrastBackgroundColor: c(TokenSelection),
		BorderColor:                 c(TokenMuted),
		TitleColor:                  c(TokenAccent),
		GraphicsColor:               c(TokenMuted),
		PrimaryTextColor:            c(TokenText),
		SecondaryTextColor:          c(TokenAccent),
		TertiaryTextColor:           c(TokenMuted),
		InverseTextColor:            c(TokenText),
		ContrastSecondaryTextColor:  c(TokenAccent),
	}
	if tview.Styles != want {
		tview.Styles = want
	}
}
