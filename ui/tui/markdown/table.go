package markdown

import (
	"strings"
)

// table renders a pipe table. When it fits the width, columns are aligned
// (as the delimiter row asks) and separated by "│", with a rule under the
// header; otherwise each row becomes a wrapped line of cells joined by " │ ".
func (r *renderer) table(rows []string, pf *prefixes) {
	aligns := splitRow(rows[1])
	var cells [][]*styled
	var widths []int
	for k, row := range rows {
		if k == 1 {
			continue
		}
		base := r.p.text
		if k == 0 {
			base = base.Bold(true)
		}
		var rc []*styled
		for c, cell := range splitRow(row) {
			st := &styled{}
			r.p.inline(st, strings.TrimSpace(cell), base)
			rc = append(rc, st)
			w := StringWidth(st.b.String())
			if c >= len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], w)
		}
		cells = append(cells, rc)
	}
	total := segmentsWidth(pf.rest) + 3*(len(widths)-1)
	for _, w := range widths {
		total += w
	}
	sep := " │ "
	fits := total <= r.lb.width
	for k, rc := range cells {
		row := &styled{}
		for c := range widths {
			if c > 0 {
				row.add(sep, r.p.muted)
			}
			var text string
			var st *styled
			if c < len(rc) {
				st = rc[c]
				text = st.b.String()
			}
			if !fits {
				if st != nil {
					addStyled(row, st)
				}
				continue
			}
			pad := widths[c] - StringWidth(text)
			left := 0
			if c < len(aligns) {
				a := strings.TrimSpace(aligns[c])
				switch {
				case strings.HasPrefix(a, ":") && strings.HasSuffix(a, ":"):
					left = pad / 2
				case strings.HasSuffix(a, ":"):
					left = pad
				}
			}
			row.add(strings.Repeat(" ", left), r.p.text)
			if st != nil {
				addStyled(row, st)
			}
			if c < len(widths)-1 {
				row.add(strings.Repeat(" ", pad-left), r.p.text)
			}
		}
		r.lb.begin(pf.take(), pf.rest)
		if len(row.spans) > 0 {
			r.lb.setSource(row.b.String(), row.spans)
			r.lb.wrap()
		}
		r.lb.end()
		if k == 0 && fits {
			parts := make([]string, len(widths))
			for c, w := range widths {
				parts[c] = strings.Repeat("─", w)
			}
			r.lb.lines = append(r.lb.lines, Line{Segments: appendSeg(pf.rest,
				Segment{Text: strings.Join(parts, "─┼─"), Style: r.p.muted})})
		}
	}
}

// addStyled appends all of src to dst, keeping styles.
func addStyled(dst, src *styled) {
	text := src.b.String()
	from := 0
	for _, sp := range src.spans {
		dst.add(text[from:sp.end], sp.style)
		from = sp.end
	}
}

// splitRow splits a table row into cells on unescaped pipes, dropping the
// outer pipes.
func splitRow(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, "\\|") {
		row = row[:len(row)-1]
	}
	var cells []string
	start := 0
	inCode := false
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '`':
			inCode = !inCode
		case '|':
			if !inCode {
				cells = append(cells, strings.ReplaceAll(row[start:i], "\\|", "|"))
				start = i + 1
			}
		}
	}
	return append(cells, strings.ReplaceAll(row[start:], "\\|", "|"))
}
