package web_test

import (
	"strings"
	"testing"

	"pincer/ui/web/webtest"
)

// TestMarkdownSegmentsRenderAsWhole: a long reply is rendered a piece per
// task (markdown.js segments); the pieces rendered one after the other make
// the same page as the whole rendered at once — a cut never falls inside
// fenced code (even at its blank lines), a list item's indented paragraph,
// or a table.
func TestMarkdownSegmentsRenderAsWhole(t *testing.T) {
	ctx, _, _ := openPanel(t)
	para := strings.Repeat("words **bold** `code` more words.\n", 4)
	cases := []struct {
		name string
		src  string
		min  int // the fewest pieces wanted (the cut is made at all)
	}{
		{"paragraphs", strings.Repeat(para+"\n", 20), 5},
		{"fence with blank lines", para + "\n```\na\n\nb\n\n" + strings.Repeat("x\n\n", 60) + "```\n\n" + para, 2},
		{"list item with a blank line", strings.Repeat("- item\n\n  more of the item\n\n", 30) + "after\n", 1},
		{"table", strings.Repeat("| a | b |\n|---|---|\n| 1 | 2 |\n\n", 30), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := webtest.Eval[map[string]any](ctx, t, `import("/static/markdown.js").then(m => {
				const whole = document.createElement("div"); whole.append(m.render(`+js(c.src)+`));
				const parts = m.segments(`+js(c.src)+`, 200);
				const pieced = document.createElement("div"); for (const p of parts) pieced.append(m.render(p));
				return { same: whole.innerHTML === pieced.innerHTML, n: parts.length, joined: parts.join("\n") === `+js(c.src)+` };
			})`)
			if got["same"] != true || got["joined"] != true {
				t.Errorf("the %v pieces render differently from the whole (same %v, source kept %v)", got["n"], got["same"], got["joined"])
			}
			if n, _ := got["n"].(float64); int(n) < c.min {
				t.Errorf("%v pieces, want at least %d", n, c.min)
			}
		})
	}
}
