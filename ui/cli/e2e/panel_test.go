package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pincer/core/provider/openai/openaitest"
	"pincer/ui/web/webtest"
)

// TestPanelApprovesAnEdit is issue 18's browser test: the real binary's
// `pincer serve` against the scripted provider, its printed URL opened in
// headless Chromium; a session created in the repository from the panel, a
// prompt typed and sent with Enter, the streamed answer shown, the model's
// Edit waiting in the approval queue with its diff in the diff pane (the
// screenshot is taken then), "allow once" clicked, the file changed on disk
// and the timeline showing the call done.
func TestPanelApprovesAnEdit(t *testing.T) {
	ctx := webtest.Browser(t, 60*time.Second)
	e := newEnv(t,
		openaitest.Reply{Text: "Let me **read** `hello.txt` first.", ToolCalls: []openaitest.Call{{ID: "c1", Name: "Read", Args: `{"file_path":"hello.txt"}`}}},
		openaitest.Reply{Text: "Now the edit.", ToolCalls: []openaitest.Call{{ID: "c2", Name: "Edit", Args: `{"file_path":"hello.txt","old_string":"world","new_string":"pincer"}`}}},
		openaitest.Reply{Text: "I changed *hello.txt*."},
	)
	srv := e.serve()
	webtest.Navigate(ctx, t, srv.url)
	// the token left the address bar (a cookie carries it now)
	if loc := webtest.Eval[string](ctx, t, `location.href`); strings.Contains(loc, "token=") {
		t.Errorf("the token is still in the address: %s", loc)
	}
	waitJS(ctx, t, 10*time.Second, "the panel", `document.getElementById("sessions").children.length > 0`)

	// a new session in the repository
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#new-cwd"), e.repo),
		chromedp.Click(chromedp.CSS("#create")),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 10*time.Second, "the session open", `!document.getElementById("session").hidden && document.getElementById("conn").textContent === "live"`)

	// a prompt of two lines (Shift+Enter adds one), sent with Enter
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#input"), "change world"),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierShift)),
		chromedp.SendKeys(chromedp.CSS("#input"), "to pincer"),
	); err != nil {
		t.Fatal(err)
	}
	if v := webtest.Eval[string](ctx, t, `document.getElementById("input").value`); v != "change world\nto pincer" {
		t.Fatalf("Shift+Enter: the box holds %q", v)
	}
	if err := chromedp.Do(ctx, webtest.Enter()); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 10*time.Second, "the prompt in the transcript", `document.querySelector("#transcript .msg.user .body")?.textContent === "change world\nto pincer"`)
	waitJS(ctx, t, 15*time.Second, "the streamed answer", `document.querySelector("#transcript .msg.assistant strong")?.textContent === "read"`)
	waitJS(ctx, t, 15*time.Second, "the Edit in the queue", `document.querySelector("#approvals .approval .ap-name")?.textContent === "Edit"`)
	if got := e.read("hello.txt"); got != "hello world\n" {
		t.Fatalf("the file changed before the approval: %q", got)
	}
	waitJS(ctx, t, 5*time.Second, "the request's diff", `[...document.querySelectorAll("#diff .dl-add")].some(l => l.textContent === "+hello pincer") && [...document.querySelectorAll("#diff .dl-del")].some(l => l.textContent === "-hello world")`)
	if v := webtest.Eval[string](ctx, t, `document.getElementById("input").value`); v != "" {
		t.Errorf("the input box kept %q after Enter sent it", v)
	}
	if got := webtest.Eval[string](ctx, t, `[...document.querySelectorAll("#approvals .ap-act")].map(b => b.textContent).join("|")`); got != "y allow once|s allow for the session|a always allow|n deny|N deny with a reason" {
		t.Errorf("the queue's answers: %s", got)
	}
	webtest.Screenshot(ctx, t, "panel-approval.png")

	// a click before the request was on screen 400 ms answers nothing: the
	// test waits as a person reads, then allows once
	time.Sleep(600 * time.Millisecond)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#approvals .approval .ap-y"))); err != nil {
		t.Fatal(err)
	}
	e.waitFile("hello.txt", "hello pincer\n", 10*time.Second)
	waitJS(ctx, t, 10*time.Second, "the Edit done in the timeline", `[...document.querySelectorAll("#timeline .call")].some(b => b.querySelector(".name").textContent === "Edit" && b.dataset.status === "done")`)
	waitJS(ctx, t, 10*time.Second, "the final answer", `[...document.querySelectorAll("#transcript .msg.assistant em")].some(e => e.textContent === "hello.txt")`)
	waitJS(ctx, t, 10*time.Second, "the turn's end", `document.getElementById("s-status").textContent === "idle" && !document.querySelector("#approvals .approval")`)
	// the timeline's Edit shows the diff it made
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#timeline .call[data-call-id="c2"]`))); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 5*time.Second, "the call's diff", `[...document.querySelectorAll("#diff .dl-add")].some(l => l.textContent === "+hello pincer")`)
}
