package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/chromedp/chromedp"

	"pincer/core/provider/openai/openaitest"
	"pincer/ui/web/webtest"
)

// TestPanelHostileModelText: the model is the adversary. Its streamed text,
// a Write's file name and content (the request's summary and diff) and a
// Bash command (the request's command) carry script, event-handler, SVG,
// javascript:/data: link, </textarea>, <title> and bidi-override payloads
// that would set window.__pwned, change the title or fetch a marker URL.
// In the real browser against the real server nothing runs or loads, the
// payloads show as text, and the queue is answered by keyboard: N with a
// typed reason, then n.
func TestPanelHostileModelText(t *testing.T) {
	ctx := webtest.Browser(t, 60*time.Second)
	var mu sync.Mutex
	var hits []string
	marker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.String())
		mu.Unlock()
		w.Header().Set("Content-Type", "image/svg+xml")
		_, _ = w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	}))
	t.Cleanup(marker.Close)
	m := marker.URL
	prose := strings.Join([]string{
		`Here: <script>window.__pwned=1;fetch("` + m + `/script")</script>`,
		`<img src=x onerror="window.__pwned=2;fetch('` + m + `/onerror')"> and <img src="` + m + `/img">`,
		`![remote](` + m + `/md-image) [js](javascript:window.__pwned=3) [JS](JaVaScRiPt:window.__pwned=3) [data](data:text/html,<script>parent.__pwned=4</script>)`,
		`</textarea><script>window.__pwned=5</script> <svg onload="window.__pwned=6"><circle r="1"/></svg>`,
		`<title>pwned</title><base href="` + m + `/base/"> <iframe src="` + m + `/iframe"></iframe>`,
		"```\n</code></pre><script>window.__pwned=7</script>\n```",
		"txt.\u202eexe and [fine](https://example.com/ok)",
	}, "\n\n")
	badName := "x<img src=" + m + "/name onerror=window.__pwned=8>\u202egnp.sh"
	e := newEnv(t,
		openaitest.Reply{Text: prose, ToolCalls: []openaitest.Call{{ID: "w1", Name: "Write",
			Args: `{"file_path":` + asciiJSON(badName) + `,"content":"<script>window.__pwned=9</script>\n<svg onload=window.__pwned=10>\n"}`}}},
		openaitest.Reply{ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash",
			Args: `{"command":` + asciiJSON(`rm -f "x</textarea><script>window.__pwned=11</script>" # `+"\u202e"+`txt`) + `}`}}},
		openaitest.Reply{Text: "done <img src=" + m + "/last onerror=window.__pwned=12>"},
	)
	srv := e.serve()
	webtest.Navigate(ctx, t, srv.url)
	waitJS(ctx, t, 10*time.Second, "the panel", `document.getElementById("new-cwd").value !== ""`)
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#new-cwd"), e.repo),
		chromedp.Click(chromedp.CSS("#create")),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 10*time.Second, "the session open", `document.getElementById("conn").textContent === "live"`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#input"), "write the file\r")); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 15*time.Second, "the Write in the queue", `document.querySelector("#approvals .approval .ap-name")?.textContent === "Write"`)
	waitJS(ctx, t, 5*time.Second, "its diff", `document.querySelector("#diff .dl-add")`)

	// nothing of it is an element, a handler or a link but the https one
	check := func(when string) {
		t.Helper()
		time.Sleep(300 * time.Millisecond) // what would load or run has had its chance
		bad := webtest.Eval[[]string](ctx, t, `(() => {
			const out = [];
			if (window.__pwned !== undefined) out.push("window.__pwned=" + window.__pwned);
			if (/pwned/.test(document.title)) out.push("title " + document.title);
			if (document.querySelector("base, main script, main img, main svg, main iframe, main object, main embed, main style")) out.push("an element: " + document.querySelector("base, main script, main img, main svg, main iframe, main object, main embed, main style").tagName);
			for (const el of document.querySelectorAll("main *")) {
				for (const a of el.attributes) if (a.name.startsWith("on")) out.push("attribute " + a.name);
			}
			for (const a of document.querySelectorAll("main a")) {
				if (!/^https?:\/\//.test(a.getAttribute("href")) || a.rel !== "noopener noreferrer" || a.target !== "_blank") out.push("link " + a.outerHTML);
			}
			return out;
		})()`)
		if len(bad) > 0 {
			t.Errorf("%s: hostile text got through: %v", when, bad)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(hits) > 0 {
			t.Errorf("%s: the page fetched the marker: %v", when, hits)
		}
	}
	check("with the Write pending")
	main := webtest.Eval[string](ctx, t, `document.querySelector("main").textContent`)
	for _, want := range []string{`<script>window.__pwned=1`, `</textarea><script>`, `<title>pwned</title>`, "txt.⟦U+202E⟧exe", "⟦U+202E⟧gnp.sh", "+<script>window.__pwned=9</script>"} {
		if !strings.Contains(main, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
	if strings.ContainsRune(main, '\u202e') {
		t.Errorf("a raw bidi override reached the page")
	}
	if got := webtest.Eval[string](ctx, t, `document.querySelector('main a[href^="https://example.com"]')?.textContent || ""`); got != "fine" {
		t.Errorf("the https link: %q", got)
	}

	// by keyboard: Alt+3 to the queue, N, a reason, Enter
	time.Sleep(600 * time.Millisecond)
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("3", chromedp.KeyModifiers(chromedp.ModifierAlt)),
		chromedp.KeyEvent("N"),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 5*time.Second, "the reason box", `document.activeElement?.classList.contains("ap-reason-input")`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("not that file\r")); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 15*time.Second, "the Bash in the queue", `document.querySelector("#approvals .approval .ap-name")?.textContent === "Bash"`)
	if !strings.Contains(webtest.Eval[string](ctx, t, `document.querySelector("#approvals .ap-command").textContent`), `</textarea><script>window.__pwned=11</script>`) {
		t.Errorf("the command is not shown whole as text")
	}
	check("with the Bash pending")
	waitJS(ctx, t, 5*time.Second, "the Write denied in the timeline", `document.querySelector('#timeline .call[data-call-id="w1"]')?.dataset.status === "denied"`)
	time.Sleep(600 * time.Millisecond)
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("3", chromedp.KeyModifiers(chromedp.ModifierAlt)),
		chromedp.KeyEvent("n"),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 15*time.Second, "the turn's end", `document.getElementById("s-status").textContent === "idle" && !document.querySelector("#approvals .approval")`)
	check("after the turn")
	// the model read the typed reason
	found := false
	for _, req := range e.fake.Requests() {
		if b, _ := json.Marshal(req); strings.Contains(string(b), "not that file") {
			found = true
		}
	}
	if !found {
		t.Errorf("the denial's reason did not reach the model")
	}
}

// asciiJSON quotes s as a JSON string with every non-ASCII character
// escaped (\uXXXX), so the fake's byte-wise split of a call's arguments
// never cuts a character in two.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range jsq(s) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
