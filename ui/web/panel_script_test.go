package web_test

// The panel's own JavaScript (static/*.js), run in a real headless Chromium
// against the embedded files served with the panel's Content-Security-Policy:
// the Markdown renderer's output, the diff's line kinds, the visible marks of
// bidi/control characters, the event reducer's de-duplication, and the
// safety table: hostile model text in every place the panel shows model text
// runs nothing and fetches nothing.

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"pincer/ui/web"
	"pincer/ui/web/webtest"
)

// panelCSP is the contract's policy for the panel's HTML (API-CONTRACT.md).
const panelCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// staticPanel serves the embedded panel as the server does (/ is index.html,
// /static/ the files) with an API that answers an empty session list, and
// counts every request for a path under /marker/ (what a payload that
// escaped would fetch).
func staticPanel(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	sub, err := fs.Sub(web.Static, "static")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hits, conns []string
	cancelPosts := 0
	files := http.StripPrefix("/static/", http.FileServer(http.FS(sub)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		switch {
		case strings.HasPrefix(r.URL.Path, "/marker/"):
			mu.Lock()
			hits = append(hits, r.URL.String())
			mu.Unlock()
			w.WriteHeader(204)
		case r.URL.Path == "/":
			b, _ := fs.ReadFile(sub, "index.html")
			w.Header().Set("Content-Security-Policy", panelCSP)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/static/"):
			files.ServeHTTP(w, r)
		case r.URL.Path == "/api/sessions":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"sessions":[` + fakeSession + `]}`))
		case r.URL.Path == "/api/sessions/s1":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(fakeSession))
		case r.URL.Path == "/api/sessions/s1/cancel" && r.Method == "POST":
			mu.Lock()
			cancelPosts++
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(202)
			w.Write([]byte(`{}`))
		case r.URL.Path == "/api/sessions/s1/events":
			mu.Lock()
			conns = append(conns, r.Header.Get("Last-Event-ID"))
			n := len(conns)
			mu.Unlock()
			fakeStream(w, r, n)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections() // the open stream's handler ends with its connection
		srv.Close()
	})
	cancels = func() int {
		mu.Lock()
		defer mu.Unlock()
		return cancelPosts
	}
	streamConns = func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), conns...)
	}
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hits...)
	}
}

// cancels returns how many cancels of s1 the last staticPanel was posted.
var cancels func() int

// streamConns returns the Last-Event-ID of each connection to the last
// staticPanel's s1 stream so far ("" for none).
var streamConns func() []string

// fakeSession is the one session staticPanel lists.
const fakeSession = `{"id":"s1","title":"reconnect","cwd":"/tmp/x","model":"fake/m","mode":"default","status":"idle","running":false,"lastSequence":0}`

// fakeStream is session s1's event stream as staticPanel serves it: the
// first connection sends events 1..3 and drops; every later one sends 2..4
// again whatever Last-Event-ID says (a server that repeats), then stays open.
func fakeStream(w http.ResponseWriter, r *http.Request, conn int) {
	w.Header().Set("Content-Type", "text/event-stream")
	evs := []string{
		`{"type":"turn.started","sequence":1,"sessionId":"s1","turnId":"t1","input":"hi"}`,
		`{"type":"message.delta","sequence":2,"sessionId":"s1","turnId":"t1","messageId":"m1","delta":"Hel","kind":"text"}`,
		`{"type":"message.delta","sequence":3,"sessionId":"s1","turnId":"t1","messageId":"m1","delta":"lo","kind":"text"}`,
		`{"type":"message.delta","sequence":4,"sessionId":"s1","turnId":"t1","messageId":"m1","delta":" world","kind":"text"}`,
	}
	from, to := 0, 3
	if conn > 1 {
		from, to = 1, 4
	}
	fmt.Fprint(w, "retry: 100\n\n")
	for i := from; i < to; i++ {
		var ev struct {
			Type     string `json:"type"`
			Sequence int    `json:"sequence"`
		}
		_ = json.Unmarshal([]byte(evs[i]), &ev)
		fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.Sequence, ev.Type, evs[i])
	}
	w.(http.Flusher).Flush()
	if conn > 1 {
		<-r.Context().Done()
	}
}

func openPanel(t *testing.T) (context.Context, *httptest.Server, func() []string) {
	t.Helper()
	ctx := webtest.Browser(t, 60*time.Second)
	srv, hits := staticPanel(t)
	webtest.Navigate(ctx, t, srv.URL+"/")
	webtest.Eval[bool](ctx, t, `new Promise(r => { const f = () => document.getElementById("sessions").children.length ? r(true) : setTimeout(f, 20); f(); })`)
	return ctx, srv, hits
}

// js quotes s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestMarkdownRenders(t *testing.T) {
	ctx, _, _ := openPanel(t)
	cases := []struct{ name, src, want string }{
		{"paragraph and line break", "one\ntwo\n\nthree", "<p>one<br>two</p><p>three</p>"},
		{"strong em code", "**b** *i* `c<d>` ~~s~~", "<p><strong>b</strong> <em>i</em> <code>c&lt;d&gt;</code> <del>s</del></p>"},
		{"snake_case stays text", "a_b_c and __x__", "<p>a_b_c and <strong>x</strong></p>"},
		{"heading", "## Title #", "<h2>Title</h2>"},
		{"fenced code keeps text", "```go\nif a < b {}\n```", `<pre class="code" data-lang="go"><code>if a &lt; b {}</code></pre>`},
		{"unclosed fence runs to the end", "```\nx", `<pre class="code"><code>x</code></pre>`},
		{"list", "- a\n- **b**\n\n1. x\n2. y", "<ul><li>a</li><li><strong>b</strong></li></ul><ol><li>x</li><li>y</li></ol>"},
		{"ordered start", "3. c\n4. d", `<ol start="3"><li>c</li><li>d</li></ol>`},
		{"quote", "> said\n> more", "<blockquote><p>said<br>more</p></blockquote>"},
		{"rule", "a\n\n---\n\nb", "<p>a</p><hr><p>b</p>"},
		{"http link", "[site](https://example.com/a?b=1)", `<p><a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">site</a></p>`},
		{"autolink", "<http://example.com>", `<p><a href="http://example.com/" target="_blank" rel="noopener noreferrer">http://example.com</a></p>`},
		{"javascript link is text", "[x](javascript:alert(1))", `<p><span class="md-badlink">x (javascript:alert(1))</span></p>`},
		{"relative link is text", "[x](/api/sessions)", `<p><span class="md-badlink">x (/api/sessions)</span></p>`},
		{"image is text", "![cat](https://example.com/cat.png)", `<p><span class="md-image">[image: cat]</span></p>`},
		{"raw html is text", "<b>x</b> <script>y</script>", "<p>&lt;b&gt;x&lt;/b&gt; &lt;script&gt;y&lt;/script&gt;</p>"},
		{"escape", `\*not em\*`, "<p>*not em*</p>"},
		{"table", "| a | b |\n|---|--:|\n| 1 | 2 |", `<div class="table-wrap"><table><thead><tr><th>a</th><th class="align-right">b</th></tr></thead><tbody><tr><td>1</td><td class="align-right">2</td></tr></tbody></table></div>`},
		{"bidi override is shown", "a\u202eb", "<p>a⟦U+202E⟧b</p>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := webtest.Eval[string](ctx, t, `import("/static/markdown.js").then(m => { const d = document.createElement("div"); d.append(m.render(`+js(c.src)+`)); return d.innerHTML; })`)
			if got != c.want {
				t.Errorf("render(%q)\n got %s\nwant %s", c.src, got, c.want)
			}
		})
	}
}

func TestDiffLineKinds(t *testing.T) {
	ctx, _, _ := openPanel(t)
	got := webtest.Eval[[]string](ctx, t, `import("/static/diff.js").then(m => ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+new", " same", "diff --git a/x b/x", "\\ No newline at end of file"].map(m.lineKind))`)
	want := []string{"meta", "meta", "hunk", "del", "add", "ctx", "meta", "meta"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("lineKind = %v, want %v", got, want)
	}
	html := webtest.Eval[string](ctx, t, `import("/static/diff.js").then(m => m.renderDiff("-a<b>\n+c").outerHTML)`)
	if want := `<pre class="diff"><span class="dl dl-del">-a&lt;b&gt;</span><span class="dl dl-add">+c</span></pre>`; html != want {
		t.Errorf("renderDiff = %s, want %s", html, want)
	}
}

func TestVisibleMarksControls(t *testing.T) {
	ctx, _, _ := openPanel(t)
	cases := []struct{ in, want string }{
		{"plain\ttab\nline", "plain\ttab\nline"},
		{"evil\u202etxt.exe", "evil⟦U+202E⟧txt.exe"},
		{"\u2066iso\u2069", "⟦U+2066⟧iso⟦U+2069⟧"},
		{"esc\x1b[31m", "esc⟦U+001B⟧[31m"},
		{"rlm\u200f", "rlm⟦U+200F⟧"},
	}
	for _, c := range cases {
		if got := webtest.Eval[string](ctx, t, `import("/static/dom.js").then(m => m.visible(`+js(c.in)+`))`); got != c.want {
			t.Errorf("visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestReducerDeduplicatesBySequence(t *testing.T) {
	ctx, _, _ := openPanel(t)
	// a reconnect that repeats events 2..3 and an out-of-order old one change nothing
	got := webtest.Eval[map[string]any](ctx, t, `import("/static/state.js").then(s => {
		const v = s.newView("s1");
		const evs = [
			{type: "turn.started", sequence: 1, turnId: "t1", input: "hi"},
			{type: "message.delta", sequence: 2, messageId: "m1", delta: "Hel", kind: "text"},
			{type: "message.delta", sequence: 3, messageId: "m1", delta: "lo", kind: "text"},
			{type: "message.delta", sequence: 2, messageId: "m1", delta: "Hel", kind: "text"},
			{type: "message.delta", sequence: 3, messageId: "m1", delta: "lo", kind: "text"},
			{type: "permission.requested", sequence: 4, turnId: "t1", requestId: "r1", toolCallId: "c1", name: "Edit", summary: "Edit: a.txt", diff: "-a\n+b"},
			{type: "permission.requested", sequence: 4, turnId: "t1", requestId: "r1", toolCallId: "c1", name: "Edit"},
			{type: "message.delta", sequence: 1, messageId: "m1", delta: "X", kind: "text"},
		];
		const flags = evs.map(e => s.apply(v, e));
		return {text: v.entries[1].text, approvals: v.approvals.length, status: v.calls[0].status, last: v.lastSeq, dup: flags.slice(3, 5).concat(flags.slice(6)) };
	})`)
	if got["text"] != "Hello" || got["approvals"] != float64(1) || got["status"] != "waiting" || got["last"] != float64(4) {
		t.Errorf("after duplicates: %v", got)
	}
	for _, f := range got["dup"].([]any) {
		if f != float64(0) {
			t.Errorf("a duplicate changed the view: flags %v", got["dup"])
		}
	}
	// resolving it and ending the turn empty the queue; the call shows done
	got = webtest.Eval[map[string]any](ctx, t, `import("/static/state.js").then(s => {
		const v = s.newView("s1");
		for (const e of [
			{type: "turn.started", sequence: 1, turnId: "t1", input: "hi"},
			{type: "tool.started", sequence: 2, turnId: "t1", toolCallId: "c1", name: "Edit", summary: "Edit: a.txt"},
			{type: "permission.requested", sequence: 3, turnId: "t1", requestId: "r1", toolCallId: "c1", name: "Edit"},
			{type: "permission.requested", sequence: 4, turnId: "t1", requestId: "r2", toolCallId: "c2", name: "Bash"},
			{type: "permission.resolved", sequence: 5, turnId: "t1", requestId: "r1", toolCallId: "c1", decision: "allow"},
			{type: "tool.completed", sequence: 6, turnId: "t1", toolCallId: "c1", name: "Edit", durationMs: 7, diff: "+x"},
		]) s.apply(v, e);
		const mid = v.approvals.map(a => a.requestId).join(",");
		s.apply(v, {type: "turn.completed", sequence: 7, turnId: "t1"});
		return {mid, after: v.approvals.length, c1: v.byCall.get("c1").status, c2: v.byCall.get("c2").status, running: v.running};
	})`)
	if got["mid"] != "r2" || got["after"] != float64(0) || got["c1"] != "done" || got["c2"] != "unfinished" || got["running"] != false {
		t.Errorf("queue through a turn: %v", got)
	}
}

// hostile is model text meant to run script, fetch the marker path or change
// the page's title, in the forms the panel must hold.
var hostile = []string{
	`<script>window.__pwned=1;fetch("/marker/script")</script>`,
	`<img src=x onerror="window.__pwned=2;fetch('/marker/img')">`,
	`<img src="/marker/img2">`,
	`[click](javascript:window.__pwned=3)`,
	`[click](JaVaScRiPt:window.__pwned=3)`,
	`[click]( javascript:window.__pwned=3 )`,
	`[data](data:text/html,<script>parent.__pwned=4</script>)`,
	`![x](/marker/md-image)`,
	`![x](https://127.0.0.1:1/marker/remote)`,
	`</textarea><script>window.__pwned=5</script>`,
	`<svg onload="window.__pwned=6;fetch('/marker/svg')"><circle r=1 /></svg>`,
	`<svg><script>window.__pwned=7</script></svg>`,
	`<iframe src="/marker/iframe"></iframe>`,
	`<a href="javascript:window.__pwned=8">x</a>`,
	"`<script>window.__pwned=9</script>`",
	"```\n</code></pre><script>window.__pwned=10</script>\n```",
	`<title>pwned</title><base href="/marker/">`,
	`<style>body{background:url(/marker/css)}</style>`,
	"\u202eexe.txt \u2066<script>window.__pwned=11</script>\u2069",
	`<object data="/marker/object"></object><embed src="/marker/embed">`,
	`[x](&#106;avascript:window.__pwned=12)`,
	`<details open ontoggle="window.__pwned=13">`,
}

func TestHostileTextRunsNothing(t *testing.T) {
	ctx, _, hits := openPanel(t)
	// every renderer the panel puts model text through, attached to the page
	// (so an element that could load or run would)
	for i, p := range hostile {
		n := webtest.Eval[int](ctx, t, `Promise.all([import("/static/markdown.js"), import("/static/diff.js"), import("/static/dom.js")]).then(([md, diff, dom]) => {
			const p = `+js(p)+`;
			const box = dom.h("div", {class: "hostile", title: p, dataset: {i: "`+string(rune('a'+i%26))+`"}},
				md.render(p), diff.renderDiff("--- a/" + p + "\n+++ b/" + p + "\n+" + p), dom.h("span", {}, p));
			document.body.append(box);
			return box.querySelectorAll("*").length;
		})`)
		if n == 0 {
			t.Fatalf("payload %d rendered nothing", i)
		}
	}
	time.Sleep(400 * time.Millisecond) // let anything that would load or run do so
	bad := webtest.Eval[[]string](ctx, t, `(() => {
		const out = [];
		if (window.__pwned !== undefined) out.push("window.__pwned=" + window.__pwned);
		if (document.title !== "pincer") out.push("title " + document.title);
		for (const el of document.querySelectorAll(".hostile *")) {
			const tag = el.tagName.toLowerCase();
			if (!["p","br","pre","code","span","strong","em","del","a","ul","ol","li","blockquote","h1","h2","h3","h4","h5","h6","hr","table","thead","tbody","tr","th","td","div"].includes(tag)) out.push("element " + tag);
			for (const a of el.attributes) {
				if (a.name.startsWith("on")) out.push("attribute " + a.name + " on " + tag);
			}
			if (tag === "a" && !/^https?:/.test(el.getAttribute("href") || "")) out.push("link " + el.getAttribute("href"));
		}
		if (document.querySelector("base")) out.push("a base element");
		return out;
	})()`)
	if len(bad) > 0 {
		t.Errorf("hostile text got through: %v", bad)
	}
	if h := hits(); len(h) > 0 {
		t.Errorf("the page fetched marker URLs: %v", h)
	}
	// and the page still shows the payloads as text
	txt := webtest.Eval[string](ctx, t, `document.querySelector(".hostile").textContent`)
	if !strings.Contains(txt, "<script>window.__pwned=1") {
		t.Errorf("the payload is not shown as text: %q", txt)
	}
}

func TestSummaryRest(t *testing.T) {
	ctx, _, _ := openPanel(t)
	cases := []struct{ name, summary, want string }{
		{"Edit", "Edit hello.txt", "hello.txt"},
		{"Bash", "Bash: rm -f README.md", "rm -f README.md"},
		{"Read", "Read", ""},
		{"Read", "Reader x", "Reader x"},
		{"Grep", "pattern in src", "pattern in src"},
		{"", "anything", "anything"},
	}
	for _, c := range cases {
		if got := webtest.Eval[string](ctx, t, `import("/static/state.js").then(m => m.summaryRest(`+js(c.name)+`, `+js(c.summary)+`))`); got != c.want {
			t.Errorf("summaryRest(%q, %q) = %q, want %q", c.name, c.summary, got, c.want)
		}
	}
}

func TestQueueAnswersOnlyWhatWasShown(t *testing.T) {
	ctx, _, _ := openPanel(t)
	// answerable: the workbench's approvalGrace rule
	got := webtest.Eval[[]bool](ctx, t, `import("/static/approvals.js").then(m => [
		m.answerable(0, 1000), m.answerable(1000, 1399), m.answerable(1000, 1400), m.answerable(1000, 5000)])`)
	if want := []bool{false, false, true, true}; len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("answerable = %v, want %v", got, want)
	}
	// a click at once answers nothing; after the grace it gives the button's
	// answer; deny with a reason sends the typed reason
	res := webtest.Eval[map[string]any](ctx, t, `import("/static/approvals.js").then(async m => {
		const el = document.createElement("div");
		document.body.append(el);
		const answers = [];
		const q = new m.Queue(el, (a, act, reason) => { answers.push(a.requestId + ":" + act.decision + "/" + act.scope + "/" + reason); }, () => {});
		q.update([{requestId: "r1", name: "Edit", summary: "Edit a.txt"}, {requestId: "r2", name: "Bash", summary: "Bash: ls", command: "ls"}]);
		const card = id => el.querySelector('[data-request-id="' + id + '"]');
		card("r1").querySelector(".ap-y").click();
		const early = answers.length;
		const status = card("r1").querySelector(".ap-status").textContent;
		await new Promise(r => setTimeout(r, Math.max(0, 1000 - performance.now()))); // the page's clock past 500 ms
		for (const c of q.cards.values()) c.shownAt = performance.now() - 500; // shown 500 ms ago (also in a tab the browser calls hidden)
		card("r1").querySelector(".ap-s").click();
		card("r2").querySelector(".ap-N").click();
		const box = card("r2").querySelector(".ap-reason-input");
		box.value = "not that";
		box.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
		card("r2").querySelector(".ap-y").click(); // busy: a second answer is not sent
		const labels = [...card("r1").querySelectorAll(".ap-act")].map(b => b.textContent).join("|");
		q.update([]);
		return {early, status, answers, labels, left: el.querySelectorAll(".approval").length};
	})`)
	if res["early"] != float64(0) || res["status"] != "read the request first" {
		t.Errorf("an answer before the grace: %v", res)
	}
	answers, _ := res["answers"].([]any)
	if len(answers) != 2 || answers[0] != "r1:allow/session/" || answers[1] != "r2:deny/once/not that" {
		t.Errorf("answers sent: %v", res["answers"])
	}
	if res["labels"] != "y allow once|s allow for the session|a always allow|n deny|N deny with a reason" {
		t.Errorf("the answers' labels: %v", res["labels"])
	}
	if res["left"] != float64(0) {
		t.Errorf("answered requests stayed in the queue: %v", res["left"])
	}
}

// TestStreamResumesWithoutRepeats: the panel's EventSource reconnects after a
// dropped stream sending Last-Event-ID (the last id it got), and events the
// server sends again are not applied twice (de-duplicated by sequence).
func TestStreamResumesWithoutRepeats(t *testing.T) {
	ctx, srv, _ := openPanel(t)
	webtest.Navigate(ctx, t, srv.URL+"/#s=s1")
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := webtest.Eval[string](ctx, t, `document.querySelector("#transcript .msg.assistant .body")?.textContent || ""`)
		if got == "Hello world" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the transcript says %q, want \"Hello world\" (connections: %q)", got, streamConns())
		}
		time.Sleep(30 * time.Millisecond)
	}
	conns := streamConns()
	if len(conns) < 2 || conns[0] != "" || conns[1] != "3" {
		t.Errorf("the stream's connections sent Last-Event-ID %q, want \"\" then \"3\"", conns)
	}
	if got := webtest.Eval[string](ctx, t, `document.getElementById("conn").textContent`); got != "live" {
		t.Errorf("the connection shows %q", got)
	}
}
