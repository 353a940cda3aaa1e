package shell

import (
	"strings"
)

// show renders a Command compactly for table tests:
//
//	[origin: ][~][(wrappers) ][assigns ]text[ redirects]
//
// "~" marks a non-literal command; each redirect is Op, then " "+Target
// when there is one, then "(w)" for a write and "(~)" for a non-literal
// target.
func show(c Command) string {
	var parts []string
	if len(c.Wrappers) > 0 {
		parts = append(parts, "("+strings.Join(c.Wrappers, " ")+")")
	}
	parts = append(parts, c.Assigns...)
	if c.Text != "" {
		parts = append(parts, c.Text)
	}
	for _, r := range c.Redirects {
		s := r.Op
		if r.Target != "" {
			s += " " + r.Target
		}
		if r.Write {
			s += "(w)"
		}
		if !r.Literal {
			s += "(~)"
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, " ")
	if !c.Literal {
		out = "~" + out
	}
	if c.Origin != "" {
		out = c.Origin + ": " + out
	}
	return out
}

func showAll(cs []Command) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = show(c)
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
