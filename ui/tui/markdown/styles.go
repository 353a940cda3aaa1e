package markdown

import (
	"github.com/gdamore/tcell/v2"

	"pincer/themes"
)

// palette holds the styles markdown elements are drawn with, all derived
// from the theme's semantic tokens.
type palette struct {
	theme    *themes.Theme
	text     tcell.Style
	muted    tcell.Style
	code     tcell.Style // inline code
	link     tcell.Style
	heading  [3]tcell.Style // h1, h2, h3 and deeper
	bullet   tcell.Style
	quoteBar tcell.Style
	rule     tcell.Style
	marker   tcell.Style // code block bar and continuation marker
}

// newPalette derives the markdown styles from th (nil means dark).
func newPalette(th *themes.Theme) *palette {
	if th == nil {
		th = themes.Dark()
	}
	text := th.Style(themes.TokenText)
	accent := th.Style(themes.TokenAccent)
	muted := th.Style(themes.TokenMuted)
	return &palette{
		theme:    th,
		text:     text,
		muted:    muted,
		code:     th.Style(themes.TokenWarning),
		link:     accent.Bold(false).Underline(true),
		heading:  [3]tcell.Style{accent.Bold(true).Underline(true), accent.Bold(true), text.Bold(true)},
		bullet:   accent.Bold(false),
		quoteBar: muted,
		rule:     muted,
		marker:   muted,
	}
}
