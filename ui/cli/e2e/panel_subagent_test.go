package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pincer/core/provider/openai/openaitest"
	"pincer/ui/web/webtest"
)

// TestPanelSubagentApproval: a subagent's request (its own session's log)
// waits in the open parent's queue labelled [general-purpose], as in the
// workbench; allowing it from the panel runs the child's Bash, the parent's
// turn ends with the child's answer, and the session list nests the child
// under its parent.
func TestPanelSubagentApproval(t *testing.T) {
	ctx := webtest.Browser(t, 60*time.Second)
	e := newEnv(t,
		openaitest.Reply{When: "PARENT-GO", ToolCalls: []openaitest.Call{agentCall("a1", "general-purpose", "make the marker", "CHILDTASK make the marker", "")}},
		openaitest.Reply{When: "CHILDTASK", ToolCalls: []openaitest.Call{{ID: "b1", Name: "Bash", Args: `{"command":"touch child-marker"}`}}},
		openaitest.Reply{When: "CHILDTASK", Text: "CHILD-FINAL-TEXT marker made"},
		openaitest.Reply{When: "PARENT-GO", Text: "parent saw the subagent's answer"},
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
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#input"), "PARENT-GO please\r")); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 20*time.Second, "the child's request in the queue", `document.querySelector("#approvals .approval .ap-label")?.textContent === "[general-purpose] " && document.querySelector("#approvals .ap-command")?.textContent === "touch child-marker"`)
	time.Sleep(600 * time.Millisecond)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#approvals .approval .ap-y"))); err != nil {
		t.Fatal(err)
	}
	waitJS(ctx, t, 20*time.Second, "the parent's answer", `[...document.querySelectorAll("#transcript .msg.assistant")].some(m => m.textContent.includes("parent saw the subagent's answer"))`)
	if got := e.read("child-marker"); got != "" {
		t.Fatalf("child-marker = %q", got)
	}
	waitJS(ctx, t, 10*time.Second, "the queue empty and the Agent call done", `!document.querySelector("#approvals .approval") && document.querySelector('#timeline .call[data-call-id="a1"]')?.dataset.status === "done"`)
	waitJS(ctx, t, 10*time.Second, "the child nested in the list", `[...document.querySelectorAll("#sessions ul.children .session .s-title")].some(s => s.textContent.includes("[general-purpose]"))`)
}
