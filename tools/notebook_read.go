package tools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// renderNotebook is what Read shows of a notebook, as Claude Code's Read of an
// .ipynb: each cell as `<cell id="ID" type="TYPE">` (with the execution count
// of a code cell that has one), its source, then its outputs — stream text,
// the text/plain of results and displays, errors as "ENAME: EVALUE" and the
// traceback (made safe: ANSI colours removed) — with images and other rich
// data named, not inlined; closed by `</cell>`. Read numbers and caps these
// lines as any file's.
func renderNotebook(nb *notebook) string {
	var b strings.Builder
	for i, c := range nb.cells {
		typ := c.str("cell_type")
		fmt.Fprintf(&b, "<cell id=%q type=%q", nb.cellID(i), typ)
		var count *int
		if json.Unmarshal(c.get("execution_count"), &count) == nil && count != nil {
			fmt.Fprintf(&b, " execution_count=\"%d\"", *count)
		}
		b.WriteString(">\n")
		writeBlock(&b, joinText(c.get("source")))
		var outputs []jsonObject
		_ = json.Unmarshal(c.get("outputs"), &outputs)
		for _, o := range outputs {
			renderOutput(&b, o)
		}
		b.WriteString("</cell>\n")
	}
	if len(nb.cells) == 0 {
		b.WriteString("(the notebook has no cells)\n")
	}
	return b.String()
}

// renderOutput writes one output of a code cell.
func renderOutput(b *strings.Builder, o jsonObject) {
	switch kind := o.str("output_type"); kind {
	case "stream":
		fmt.Fprintf(b, "<output type=\"stream\" name=%q>\n", o.str("name"))
		writeBlock(b, safeText(joinText(o.get("text"))))
	case "execute_result", "display_data":
		fmt.Fprintf(b, "<output type=%q>\n", kind)
		var data map[string]json.RawMessage
		_ = json.Unmarshal(o.get("data"), &data)
		if text, ok := data["text/plain"]; ok {
			writeBlock(b, safeText(joinText(text)))
		}
		var other []string
		for mime := range data {
			if mime != "text/plain" {
				other = append(other, mime)
			}
		}
		sort.Strings(other)
		for _, mime := range other {
			fmt.Fprintf(b, "[%s output not shown]\n", mime)
		}
	case "error":
		b.WriteString("<output type=\"error\">\n")
		fmt.Fprintf(b, "%s: %s\n", o.str("ename"), o.str("evalue"))
		var tb []string
		_ = json.Unmarshal(o.get("traceback"), &tb)
		writeBlock(b, safeText(strings.Join(tb, "\n")))
	default:
		fmt.Fprintf(b, "<output type=%q>\n", kind)
	}
	b.WriteString("</output>\n")
}

// safeText is SafeOutput's text without its note.
func safeText(s string) string {
	out, _ := SafeOutput(s)
	return out
}

// writeBlock writes s ending in a newline (nothing when s is empty).
func writeBlock(b *strings.Builder, s string) {
	if s == "" {
		return
	}
	b.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
}
