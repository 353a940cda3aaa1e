package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxCommandHeader bounds the command the diff pane's header shows of a
// pending Bash call, in characters; a longer command is shown whole below
// the header (scroll, or zoom the pane).
const maxCommandHeader = 4000

// commandHeader is the diff pane's header of a pending Bash call: the whole
// command first (wrapped by the pane, never cut at a width: what y would
// run), then why it asks and the keys. A command over maxCommandHeader
// characters shows its start and says how many more follow; rest reports
// that case (the pane's text then holds the whole command).
func commandHeader(command, reason, keys string) (header []textPart, rest bool) {
	shown := command
	more := ""
	if n := utf8.RuneCountInString(command); n > maxCommandHeader {
		shown = string([]rune(command)[:maxCommandHeader])
		more = fmt.Sprintf("\n… %d more characters: the whole command follows below (scroll down, or zoom the pane)", n-maxCommandHeader)
		rest = true
	}
	return []textPart{
		{Text: "Bash command:"},
		{Text: shown, Code: true},
		{Text: fmt.Sprintf("%sWhy it asks: %s\n%s", strings.TrimPrefix(more+"\n", "\n"), reason, keys)},
	}, rest
}
