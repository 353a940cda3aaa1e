package gemini

import (
	"strconv"
)

// exclusiveBounds rewrites JSON Schema's exclusive bounds, which Gemini's Schema
// subset lacks (a declaration using them is rejected with HTTP 400), into what it
// has: both the 2020-12 form ("exclusiveMinimum": 5) and the draft-4 form
// ("minimum": 5, "exclusiveMinimum": true) are read. For an integer the bound
// becomes the inclusive one next to it ("> 5" is "minimum": 6), exact; for any other
// type it becomes the inclusive bound itself (one value looser) and the exclusive
// bound is kept in the description ("Must be greater than 5."). When the schema
// also has a tighter inclusive bound, that one stays. A bound that is no number is
// dropped.
func exclusiveBounds(out, in *node) {
	typ, _ := out.get("type").str()
	for _, side := range []struct {
		exclusive, inclusive, words string
		step                        float64
		tighter                     func(a, b float64) bool
	}{
		{"exclusiveMinimum", "minimum", "greater than", 1, func(a, b float64) bool { return a > b }},
		{"exclusiveMaximum", "maximum", "less than", -1, func(a, b float64) bool { return a < b }},
	} {
		ex := in.get(side.exclusive)
		if ex == nil || ex.kind != 's' {
			continue
		}
		raw := string(ex.raw)
		switch raw {
		case "false":
			continue
		case "true": // draft 4: the inclusive keyword holds the bound
			inc := in.get(side.inclusive)
			if inc == nil || inc.kind != 's' {
				continue
			}
			raw = string(inc.raw)
		}
		bound, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			continue
		}
		exact := typ == "integer" && bound == float64(int64(bound))
		value := bound
		if exact {
			value = bound + side.step
		}
		if cur := out.get(side.inclusive); cur != nil {
			if c, err := strconv.ParseFloat(string(cur.raw), 64); err == nil && c != bound && !side.tighter(value, c) {
				continue // the schema's own inclusive bound is at least as tight
			}
		}
		out.set(side.inclusive, scalar(strconv.FormatFloat(value, 'f', -1, 64)))
		if !exact {
			note := "Must be " + side.words + " " + raw + "."
			if desc, ok := out.get("description").str(); ok && desc != "" {
				note = desc + " " + note
			}
			out.set("description", stringNode(note))
		}
	}
}
