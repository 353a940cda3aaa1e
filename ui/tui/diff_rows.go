package tui

import (
	"fmt"
	"strings"

	"github.com/rivo/uniseg"
)

// styledSpan is a run of text in the diff pane with its theme token; Mark
// highlights it (the changed words of a changed line).
type styledSpan struct {
	Text  string
	Token string
	Mark  bool
	// Prose marks a line of prose (a line's only span): it wraps at spaces,
	// always, and its rows carry no continuation mark; code and diff lines
	// wrap by cell with contMark.
	Prose bool
}

// textPart is a piece of the diff pane's header: prose (what is asked, why,
// the keys: wrapped at spaces) or Code (a command: wrapped by cell, marked
// contMark, as a diff line, so that a line break is never mistaken for a
// new line of the command).
type textPart struct {
	Text string
	Code bool
}

// proseParts is text as a header of prose only.
func proseParts(text string) []textPart { return []textPart{{Text: text}} }

// partsText is a header's text, its parts joined by newlines.
func partsText(parts []textPart) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// partsKey tells two headers apart for the layout cache.
func partsKey(parts []textPart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.Code {
			b.WriteByte('c')
		} else {
			b.WriteByte('p')
		}
		b.WriteString(p.Text)
		b.WriteByte(0)
	}
	return b.String()
}

// diffRow is one screen row of the diff pane: the spans it shows, and Cont
// when it continues the line above (a wrapped line; the gutter marks it).
type diffRow struct {
	Cont  bool
	Spans []styledSpan
}

// contMark is drawn in the gutter of a row that continues a wrapped line.
const contMark = "↪"

// diffLines turns what the diff pane shows into logical lines of spans:
// header (what is asked and why, shown first: prose, and a command as code)
// then text — a unified diff coloured by line (its ---/+++ labels left to the
// title), the changed words of each paired -/+ line marked (wordDiff), or
// plain text, prose when prose (a message, not an output). Tabs become four
// spaces.
func diffLines(header []textPart, text string, diff, prose bool) [][]styledSpan {
	var out [][]styledSpan
	plain := func(s, token string, prose bool) {
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			out = append(out, []styledSpan{{Text: expandTabs(l), Token: token, Prose: prose}})
		}
	}
	for _, p := range header {
		plain(p.Text, "text", !p.Code)
	}
	if len(header) > 0 && text != "" {
		out = append(out, []styledSpan{{Token: "text"}})
	}
	if !diff {
		if text != "" || len(header) == 0 {
			plain(text, "text", prose)
		}
		return out
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	kinds := classifyDiff(lines)
	several := len(diffFiles(lines, kinds)) > 1
	for i := 0; i < len(lines); {
		l := lines[i]
		switch kinds[i] {
		case diffHunk:
			out = append(out, []styledSpan{{Text: expandTabs(l), Token: "accent"}})
			i++
		case diffLabel:
			// The file labels: the pane's title names the one file (diffStats);
			// of a diff of several files, each file's "+++" label (its "---"
			// for a deleted file) heads its hunks.
			if several && (strings.HasPrefix(l, "+++ ") && !strings.HasSuffix(l, "/dev/null") ||
				strings.HasPrefix(l, "--- ") && i+1 < len(lines) && lines[i+1] == "+++ /dev/null") {
				out = append(out, []styledSpan{{Text: expandTabs(strings.TrimSpace(l[4:])), Token: "accent"}})
			}
			i++
		case diffRemoved:
			// A run of removed lines, then the added lines that replace them:
			// the i-th of each are paired for the word diff.
			j := i
			for j < len(lines) && kinds[j] == diffRemoved {
				j++
			}
			k := j
			for k < len(lines) && kinds[k] == diffAdded {
				k++
			}
			removed, added := lines[i:j], lines[j:k]
			oldSp, newSp := make([][]span, len(removed)), make([][]span, len(added))
			for n := range removed {
				oldSp[n] = []span{{Text: removed[n][1:]}}
			}
			for n := range added {
				newSp[n] = []span{{Text: added[n][1:]}}
			}
			for n := 0; n < min(len(removed), len(added)); n++ {
				oldSp[n], newSp[n] = wordDiff(removed[n][1:], added[n][1:])
			}
			for _, sp := range oldSp {
				out = append(out, marked("-", sp, "diff.removed"))
			}
			for _, sp := range newSp {
				out = append(out, marked("+", sp, "diff.added"))
			}
			i = k
		case diffAdded:
			out = append(out, []styledSpan{{Text: expandTabs(l), Token: "diff.added"}})
			i++
		case diffNote:
			out = append(out, []styledSpan{{Text: expandTabs(l), Token: "muted"}})
			i++
		default:
			out = append(out, []styledSpan{{Text: expandTabs(l), Token: "diff.context"}})
			i++
		}
	}
	return out
}

// marked is one changed line: its sign, then its spans, the changed ones
// marked when the line also has unchanged text (a line changed whole is
// not highlighted word by word).
func marked(sign string, spans []span, token string) []styledSpan {
	partial := false
	for _, s := range spans {
		if !s.Changed {
			partial = true
		}
	}
	out := []styledSpan{{Text: sign, Token: token}}
	for _, s := range spans {
		out = append(out, styledSpan{Text: expandTabs(s.Text), Token: token, Mark: s.Changed && partial})
	}
	return out
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// layoutRows lays logical lines out as screen rows width cells wide: a line
// of prose wraps at spaces (wrapCells), always; with wrap, a longer code or
// diff line continues on the next rows (Cont), cut at grapheme boundaries;
// without, each such line is one row (drawn from the pane's sideways
// offset). width < 1 is taken as 1.
func layoutRows(lines [][]styledSpan, width int, wrap bool) []diffRow {
	width = max(width, 1)
	var rows []diffRow
	for _, line := range lines {
		if len(line) == 1 && line[0].Prose {
			for _, r := range wrapCells(line[0].Text, width) {
				rows = append(rows, diffRow{Spans: []styledSpan{{Text: r, Token: line[0].Token, Prose: true}}})
			}
			continue
		}
		if !wrap {
			rows = append(rows, diffRow{Spans: line})
			continue
		}
		row := diffRow{}
		used := 0
		for _, sp := range line {
			text, state := sp.Text, -1
			start := 0
			for pos := 0; text != ""; {
				var cluster string
				var w int
				cluster, text, w, state = uniseg.FirstGraphemeClusterInString(text, state)
				if used+w > width && used > 0 {
					if pos > start {
						row.Spans = append(row.Spans, styledSpan{Text: sp.Text[start:pos], Token: sp.Token, Mark: sp.Mark})
					}
					rows = append(rows, row)
					row, used, start = diffRow{Cont: true}, 0, pos
				}
				used += w
				pos += len(cluster)
			}
			if start < len(sp.Text) || sp.Text == "" {
				row.Spans = append(row.Spans, styledSpan{Text: sp.Text[start:], Token: sp.Token, Mark: sp.Mark})
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// rowWidth is the cells a row's text takes.
func rowWidth(r diffRow) int {
	n := 0
	for _, s := range r.Spans {
		n += textWidth(s.Text)
	}
	return n
}

// diffStats reads a unified diff's file and its added and removed line
// counts (hunk lines only, classifyDiff), for the diff pane's header: the
// file is its "+++" label (else "---"), or "N files" for a diff of several
// (apply_patch's).
func diffStats(text string) (file string, added, removed int) {
	lines := strings.Split(text, "\n")
	kinds := classifyDiff(lines)
	for _, k := range kinds {
		switch k {
		case diffAdded:
			added++
		case diffRemoved:
			removed++
		}
	}
	switch files := diffFiles(lines, kinds); len(files) {
	case 0:
	case 1:
		file = files[0]
	default:
		file = fmt.Sprintf("%d files", len(files))
	}
	return file, added, removed
}
