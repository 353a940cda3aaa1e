// Package themes holds pincer's one set of semantic colour tokens and derives
// every concrete style from them: tcell styles for custom primitives, the
// global tview.Styles, and the chroma style used for syntax highlighting.
//
// Contract:
//   - A Theme is a plain value of named tokens (Text, Muted, Accent, Success,
//     Warning, Error, DiffAdded, DiffRemoved, DiffContext, Background,
//     Selection) plus Syntax, a map from chroma token-category names
//     ("Keyword", "NameFunction", "LiteralString", "Comment", ...) to colours.
//   - Two built-in themes exist, "dark" and "light"; they are chosen by name.
//   - When NoColor is set (NO_COLOR in the environment, see FromEnv) every
//     derived style uses the terminal's default colours; attributes such as
//     bold, dim, italic, underline and reverse are still allowed, so
//     selection and emphasis stay visible.
//   - Derivations never mutate the Theme; callers may share one *Theme
//     between goroutines as long as nobody writes its fields.
package themes

import (
	"fmt"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Theme is a set of semantic colour tokens. All styles used by the UI are
// derived from these fields.
type Theme struct {
	// Name is the theme's name as accepted by ByName ("dark", "light").
	Name string
	// Text is ordinary foreground text.
	Text tcell.Color
	// Muted is secondary text: reasoning, hints, timestamps, borders.
	Muted tcell.Color
	// Accent marks headings, focus, links and the user's own messages.
	Accent tcell.Color
	// Success marks finished work (tool done, allowed).
	Success tcell.Color
	// Warning marks things waiting on the user (approvals) or caution.
	Warning tcell.Color
	// Error marks failures and denials.
	Error tcell.Color
	// DiffAdded colours added lines in diffs.
	DiffAdded tcell.Color
	// DiffRemoved colours removed lines in diffs.
	DiffRemoved tcell.Color
	// DiffContext colours unchanged context lines in diffs.
	DiffContext tcell.Color
	// Background is the pane background. tcell.ColorDefault keeps the
	// terminal's own background.
	Background tcell.Color
	// Selection is the background of the selected row or block.
	Selection tcell.Color
	// Syntax maps chroma token-category names (chroma.TokenType.String(),
	// e.g. "Keyword", "NameFunction", "LiteralString", "Comment") to
	// colours. Lookups fall back to the parent category ("LiteralStringDouble"
	// -> "LiteralString" -> "Literal"), then to Text.
	Syntax map[string]tcell.Color
	// NoColor makes every derived style colourless (terminal defaults);
	// attributes are kept.
	NoColor bool
}

// Names lists the built-in theme names accepted by ByName.
func Names() []string { return []string{"dark", "light"} }

// ByName returns a fresh copy of the built-in theme with that name
// (case-insensitive, surrounding spaces ignored). The empty name means "dark".
func ByName(name string) (*Theme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "dark":
		return Dark(), nil
	case "light":
		return Light(), nil
	}
	return nil, fmt.Errorf("themes: unknown theme %q (want one of %s)", name, strings.Join(Names(), ", "))
}

// FromEnv returns the theme named name, falling back to Dark when the name is
// unknown, with NoColor set when the NO_COLOR environment variable is
// non-empty (https://no-color.org).
func FromEnv(name string) *Theme {
	t, err := ByName(name)
	if err != nil {
		t = Dark()
	}
	if os.Getenv("NO_COLOR") != "" {
		t.NoColor = true
	}
	return t
}
