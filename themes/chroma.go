package themes

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"
)

// SyntaxColor returns the colour for a chroma token type, walking up its
// categories ("LiteralStringDouble" -> "LiteralString" -> "Literal") until
// Syntax has an entry, and falling back to Text. With NoColor it returns
// tcell.ColorDefault.
func (t *Theme) SyntaxColor(tt chroma.TokenType) tcell.Color {
	if t.NoColor {
		return tcell.ColorDefault
	}
	for {
		if c, ok := t.Syntax[tt.String()]; ok {
			return c
		}
		p := tt.Parent()
		if p == tt || tt <= 0 {
			return t.Text
		}
		tt = p
	}
}

// ChromaStyle derives a chroma style from the tokens: the background entry
// uses Text on Background, and every Syntax entry whose key names a chroma
// token type becomes a style entry (comments italic, headings bold). With
// NoColor the style carries no colours at all, only those attributes.
func (t *Theme) ChromaStyle() *chroma.Style {
	b := chroma.NewStyleBuilder("pincer-" + t.Name)
	bg := chroma.StyleEntry{}
	if !t.NoColor {
		bg.Colour = chromaColour(t.Text)
		bg.Background = chromaColour(t.Background)
	}
	b.AddEntry(chroma.Background, bg)
	for name, col := range t.Syntax {
		tt, err := chroma.TokenTypeString(name)
		if err != nil {
			continue
		}
		e := chroma.StyleEntry{}
		if !t.NoColor {
			e.Colour = chromaColour(col)
		}
		b.AddEntry(tt, e)
	}
	b.AddEntry(chroma.Comment, withAttrs(b.Get(chroma.Comment), false, true))
	b.AddEntry(chroma.GenericHeading, withAttrs(b.Get(chroma.GenericHeading), true, false))
	b.AddEntry(chroma.GenericStrong, withAttrs(b.Get(chroma.GenericStrong), true, false))
	b.AddEntry(chroma.GenericEmph, withAttrs(b.Get(chroma.GenericEmph), false, true))
	s, err := b.Build()
	if err != nil {
		// Build only fails on malformed string entries; we add none.
		panic("themes: chroma style: " + err.Error())
	}
	return s
}

func withAttrs(e chroma.StyleEntry, bold, italic bool) chroma.StyleEntry {
	if bold {
		e.Bold = chroma.Yes
	}
	if italic {
		e.Italic = chroma.Yes
	}
	return e
}

// chromaColour converts a tcell colour to a chroma colour; the default colour
// (and any colour without an RGB value) becomes chroma's "unset".
func chromaColour(c tcell.Color) chroma.Colour {
	if c == tcell.ColorDefault {
		return 0
	}
	r, g, b := c.RGB()
	if r < 0 {
		return 0
	}
	return chroma.NewColour(uint8(r), uint8(g), uint8(b))
}

// TcellStyle converts a chroma style entry to a tcell style (colours,
// bold, italic, underline), starting from base. Unset colours keep base's.
// With NoColor only the attributes are applied.
func (t *Theme) TcellStyle(e chroma.StyleEntry, base tcell.Style) tcell.Style {
	s := base
	if !t.NoColor {
		if e.Colour.IsSet() {
			s = s.Foreground(tcell.NewRGBColor(int32(e.Colour.Red()), int32(e.Colour.Green()), int32(e.Colour.Blue())))
		}
		if e.Background.IsSet() {
			s = s.Background(tcell.NewRGBColor(int32(e.Background.Red()), int32(e.Background.Green()), int32(e.Background.Blue())))
		}
	}
	if e.Bold == chroma.Yes {
		s = s.Bold(true)
	}
	if e.Italic == chroma.Yes {
		s = s.Italic(true)
	}
	if e.Underline == chroma.Yes {
		s = s.Underline(true)
	}
	return s
}
