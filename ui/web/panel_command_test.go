package web_test

import (
	"strconv"
	"strings"
	"testing"

	"pincer/ui/web/webtest"
)

// TestApprovalCardShowsTheWholeCommand (F5): a multi-line command on an
// approval card is shown whole — its line count in the title, a run of
// blank lines as one mark so the line after it is in view, and a "more
// below" cue while a long command is not scrolled to its end.
func TestApprovalCardShowsTheWholeCommand(t *testing.T) {
	ctx, _, _ := openPanel(t)
	cases := []struct {
		name, command string
		lines         int
		wantMore      bool
	}{
		{"blank run hides the rm", "ls" + strings.Repeat("\n", 80) + "rm -rf ~/x", 81, false},
		{"one line", "ls -la", 1, false},
		{"long command", strings.Repeat("echo step\n", 60) + "rm -rf ~/x", 61, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := webtest.Eval[map[string]any](ctx, t, `import("/static/approvals.js").then(m => new Promise(r => {
				const el = document.createElement("div"); el.style.width = "420px"; document.body.append(el);
				const q = new m.Queue(el, () => {}, () => {});
				q.update([{ requestId: "r-`+c.name+`", name: "Bash", summary: "Bash: ls", command: `+js(c.command)+` }]);
				requestAnimationFrame(() => requestAnimationFrame(() => {
					const pre = el.querySelector(".ap-command"), rm = [...el.querySelectorAll(".ap-line")].find(s => s.textContent.includes("rm -rf"));
					const pr = pre.getBoundingClientRect(), rr = rm ? rm.getBoundingClientRect() : null;
					const res = { title: el.querySelector(".ap-title").textContent, text: pre.textContent,
						rmInView: !!rr && rr.top >= pr.top && rr.bottom <= pr.bottom, more: !el.querySelector(".ap-more").hidden };
					pre.scrollTop = pre.scrollHeight;
					setTimeout(() => { res.moreAtEnd = !el.querySelector(".ap-more").hidden; el.remove(); r(res); }, 100);
				}));
			}))`)
			title, _ := got["title"].(string)
			if c.lines > 1 && !strings.Contains(title, " · "+itoa(c.lines)+" lines") || c.lines == 1 && strings.Contains(title, "lines") {
				t.Errorf("the title says %q, want its %d lines counted", title, c.lines)
			}
			if text, _ := got["text"].(string); !strings.Contains(text, "rm -rf ~/x") && strings.Contains(c.command, "rm") {
				t.Errorf("the command box shows %q", text)
			}
			if !c.wantMore && got["rmInView"] != true && strings.Contains(c.command, "rm") {
				t.Errorf("the rm line is not in the command box's view: %v", got)
			}
			if got["more"] != c.wantMore {
				t.Errorf("the more-below cue shown %v, want %v", got["more"], c.wantMore)
			}
			if got["moreAtEnd"] == true {
				t.Errorf("the more-below cue stays once scrolled to the end")
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
