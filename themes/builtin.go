package themes

import "github.com/gdamore/tcell/v2"

// hex builds a true-colour tcell colour from 0xRRGGBB.
func hex(v int32) tcell.Color { return tcell.NewHexColor(v) }

// Dark returns a fresh copy of the dark theme: light text on the terminal's
// own (dark) background.
func Dark() *Theme {
	return &Theme{
		Name:        "dark",
		Text:        hex(0xd8dee9),
		Muted:       hex(0x7b8494),
		Accent:      hex(0x61afef),
		Success:     hex(0x98c379),
		Warning:     hex(0xe5c07b),
		Error:       hex(0xe06c75),
		DiffAdded:   hex(0x98c379),
		DiffRemoved: hex(0xe06c75),
		DiffContext: hex(0x9da5b4),
		Background:  tcell.ColorDefault,
		Selection:   hex(0x3e4452),
		Syntax: map[string]tcell.Color{
			"Keyword":             hex(0xc678dd),
			"KeywordConstant":     hex(0xd19a66),
			"KeywordType":         hex(0xe5c07b),
			"Name":                hex(0xd8dee9),
			"NameBuiltin":         hex(0x56b6c2),
			"NameFunction":        hex(0x61afef),
			"NameClass":           hex(0xe5c07b),
			"NameTag":             hex(0xe06c75),
			"NameAttribute":       hex(0xd19a66),
			"NameDecorator":       hex(0x56b6c2),
			"Literal":             hex(0xd19a66),
			"LiteralString":       hex(0x98c379),
			"LiteralStringEscape": hex(0x56b6c2),
			"LiteralNumber":       hex(0xd19a66),
			"Operator":            hex(0x56b6c2),
			"Punctuation":         hex(0xabb2bf),
			"Comment":             hex(0x7f848e),
			"CommentPreproc":      hex(0xc678dd),
			"GenericInserted":     hex(0x98c379),
			"GenericDeleted":      hex(0xe06c75),
			"GenericHeading":      hex(0x61afef),
			"GenericSubheading":   hex(0x61afef),
			"Error":               hex(0xe06c75),
		},
	}
}

// Light returns a fresh copy of the light theme: dark text on the terminal's
// own (light) background.
func Light() *Theme {
	return &Theme{
		Name:        "light",
		Text:        hex(0x24292f),
		Muted:       hex(0x6e7781),
		Accent:      hex(0x0550ae),
		Success:     hex(0x116329),
		Warning:     hex(0x953800),
		Error:       hex(0xcf222e),
		DiffAdded:   hex(0x116329),
		DiffRemoved: hex(0xcf222e),
		DiffContext: hex(0x57606a),
		Background:  tcell.ColorDefault,
		Selection:   hex(0xddf4ff),
		Syntax: map[string]tcell.Color{
			"Keyword":             hex(0xa626a4),
			"KeywordConstant":     hex(0x986801),
			"KeywordType":         hex(0xc18401),
			"Name":                hex(0x24292f),
			"NameBuiltin":         hex(0x0184bc),
			"NameFunction":        hex(0x4078f2),
			"NameClass":           hex(0xc18401),
			"NameTag":             hex(0xe45649),
			"NameAttribute":       hex(0x986801),
			"NameDecorator":       hex(0x0184bc),
			"Literal":             hex(0x986801),
			"LiteralString":       hex(0x50a14f),
			"LiteralStringEscape": hex(0x0184bc),
			"LiteralNumber":       hex(0x986801),
			"Operator":            hex(0x0184bc),
			"Punctuation":         hex(0x383a42),
			"Comment":             hex(0x6e7781),
			"CommentPreproc":      hex(0xa626a4),
			"GenericInserted":     hex(0x116329),
			"GenericDeleted":      hex(0xcf222e),
			"GenericHeading":      hex(0x0550ae),
			"GenericSubheading":   hex(0x0550ae),
			"Error":               hex(0xcf222e),
		},
	}
}
