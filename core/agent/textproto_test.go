package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"pincer/core/event"
	"pincer/core/message"
	"pincer/core/permission"
	"pincer/core/provider"
	"pincer/core/provider/providertest"
	"pincer/persist/memory"
	"pincer/tools"
)

func TestParseTextReply(t *testing.T) {
	cases := []struct {
		name, in string
		kind     textReplyKind
		body     string
	}{
		{"command", "command: ls -la", replyCommand, "ls -la"},
		{"command after thought", "I should look first.\ncommand: cat go.mod", replyCommand, "cat go.mod"},
		{"upper case and bold", "**Command:** git status", replyCommand, "** git status"},
		{"backticked", "command: `grep -rn foo .`", replyCommand, "grep -rn foo ."},
		{"inline fence", "command: ```echo hi```", replyCommand, "echo hi"},
		{"fenced block below", "command:\n```bash\nfor f in *.go; do\n  wc -l $f\ndone\n```\nthen more", replyCommand, "for f in *.go; do\n  wc -l $f\ndone"},
		{"fence opened on the line", "command: ```bash\nmake test\n```", replyCommand, "make test"},
		{"unfenced lines below", "command:\nmake\nmake test", replyCommand, "make\nmake test"},
		{"text", "text: all done", replyText, "all done"},
		{"bold text", "**Text:** done", replyText, "done"},
		{"multi-line text", "text: first\nsecond line", replyText, "first\nsecond line"},
		{"text before a later command line", "text: run `command: x` yourself", replyText, "run `command: x` yourself"},
		{"neither", "Sure! Here is what I would do.", replyMalformed, ""},
		{"empty command", "command:   ", replyMalformed, ""},
		{"empty", "", replyMalformed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := parseTextReply(c.in)
			if got.kind != c.kind || got.body != c.body {
				t.Fatalf("parseTextReply(%q) = %v %q, want %v %q", c.in, got.kind, got.body, c.kind, c.body)
			}
		})
	}
}

func TestToolsRefused(t *testing.T) {
	pe := func(status int, msg string) error {
		return &provider.Error{Provider: "openai", Kind: provider.KindBadRequest, Status: status, Message: msg}
	}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"ollama", pe(400, `{"error":"registry.ollama.ai/library/gemma2:2b does not support tools"}`), true},
		{"vllm", pe(400, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`), true},
		{"llama.cpp", pe(500, "tools param requires --jinja flag"), false}, // a 5xx is a server error, retried as such
		{"llama.cpp 400", pe(400, "tools param requires --jinja flag"), true},
		{"gateway", pe(404, "No endpoints found that support tool use"), true},
		{"function calling", pe(400, "This model does not support function calling."), true},
		{"wrapped", errors.Join(errBoom, pe(400, "Tool use is not supported for this model")), true},
		{"other 400", pe(400, "max_tokens is too large"), false},
		{"plain error", errors.New("does not support tools"), false},
		{"nil", nil, false},
	}
	for _, c := range cases {
		if got := toolsRefused(c.err); got != c.want {
			t.Errorf("%s: toolsRefused = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTextViewWritesCallsAndResultsAsText(t *testing.T) {
	call := textBashCall("ls")
	view := []message.Message{
		message.NewText(message.RoleSystem, "sys"),
		message.NewText(message.RoleUser, "list"),
		{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartReasoning, Text: "hmm"}, {Type: message.PartText, Text: "command: ls"}, call}},
		message.NewToolResult(call.ToolCallID, "Bash", "a\nb", false),
		// a call of the function-calling protocol, made before a switch
		{Role: message.RoleAssistant, Parts: []message.Part{{Type: message.PartToolCall, ToolCallID: "c1", ToolName: "Read", Input: `{"file_path":"x"}`}}},
		message.NewToolResult("c1", "Read", "", true),
	}
	got := textView(view)
	var roles []string
	for _, m := range got {
		roles = append(roles, string(m.Role))
		if len(m.ToolCalls()) > 0 {
			t.Fatalf("a tool call reached the text view: %+v", m)
		}
	}
	if strings.Join(roles, ",") != "system,user,assistant,user,assistant,user" {
		t.Fatalf("roles %v", roles)
	}
	if !strings.HasPrefix(got[0].Text(), "sys\n\n# Protocol") {
		t.Errorf("system message %q", got[0].Text())
	}
	if got[2].Text() != "command: ls" || got[3].Text() != "command output:\na\nb" {
		t.Errorf("command turn: %q / %q", got[2].Text(), got[3].Text())
	}
	if got[4].Text() != `(called the tool Read with {"file_path":"x"})` || got[5].Text() != "result of the tool Read (failed):\n(no output)" {
		t.Errorf("function call turn: %q / %q", got[4].Text(), got[5].Text())
	}
	if view[2].Parts[0].Type != message.PartReasoning || len(view[2].ToolCalls()) != 1 {
		t.Error("the stored messages were changed")
	}
}

// bashFake is a Bash stand-in recording the commands it ran.
func bashFake() *fakeTool {
	return &fakeTool{name: "Bash", kind: tools.KindExecute,
		schema: `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"],"additionalProperties":false}`,
		run: func(_ context.Context, in []byte) (tools.Result, error) {
			return tools.Result{Output: "ran " + string(in)}, nil
		}}
}

// refusesTools answers a request carrying tools as Ollama does for a model
// without function calling, and the others with next.
func refusesTools(next func(n int, req provider.Request) providertest.Step) func(int, provider.Request) providertest.Step {
	return func(n int, req provider.Request) providertest.Step {
		if len(req.Tools) > 0 {
			return providertest.Step{Err: &provider.Error{Provider: "openai", Kind: provider.KindBadRequest, Status: 400,
				Message: `{"error":"registry.ollama.ai/library/tiny:1b does not support tools"}`}}
		}
		return next(n, req)
	}
}

func TestProviderRefusingToolsSwitchesToTextProtocolOnce(t *testing.T) {
	answers := []string{"command: echo hi", "text: it said hi", "text: again"}
	k := 0
	prov := &providertest.Scripted{Respond: refusesTools(func(int, provider.Request) providertest.Step {
		k++
		return providertest.Text(answers[k-1])
	})}
	bash := bashFake()
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass}, bash)
	res := h.submit(context.Background(), "say hi")
	if res.Outcome != OutcomeCompleted || res.FinalText != "it said hi" {
		t.Fatalf("turn: %+v", res)
	}
	if bash.runCount.Load() != 1 {
		t.Fatalf("Bash ran %d times", bash.runCount.Load())
	}
	reqs := prov.Requests()
	if len(reqs) != 3 || len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 || len(reqs[2].Tools) != 0 {
		t.Fatalf("requests: %d, tools %d", len(reqs), len(reqs[0].Tools))
	}
	last := reqs[2].Messages
	if !strings.Contains(last[0].Text(), "command: <one shell command>") {
		t.Errorf("the system message does not explain the protocol: %q", last[0].Text())
	}
	if got := last[len(last)-1]; got.Role != message.RoleUser || got.Text() != `command output:`+"\n"+`ran {"command":"echo hi"}` {
		t.Errorf("the output went back as %s %q", got.Role, got.Text())
	}
	evs := h.events()
	started := eventsOf(evs, event.ToolStarted)
	if len(started) != 1 || mustDecode[event.ToolStartedData](t, started[0]).Name != "Bash" {
		t.Fatalf("tool.started: %+v", started)
	}
	notices := func() int {
		n := 0
		for _, ev := range eventsOf(h.events(), event.Notice) {
			if d := mustDecode[event.NoticeData](t, ev); d.Source == "protocol" && strings.Contains(d.Message, "does not support tools") {
				n++
			}
		}
		return n
	}
	if notices() != 1 {
		t.Fatalf("want one notice of the switch, got %d", notices())
	}
	// The switch is remembered: the next turn goes straight to the text protocol.
	res = h.submit(context.Background(), "again")
	if res.FinalText != "again" || len(prov.Requests()) != 4 || len(prov.Request(3).Tools) != 0 || notices() != 1 {
		t.Fatalf("second turn: %+v, %d requests, %d notices", res, len(prov.Requests()), notices())
	}
	if !h.ag.cfg.Protocols.Text("fake/m") {
		t.Error("the switch was not remembered")
	}
}

// A text answer is shown without its "text:" prefix, its lead as reasoning;
// the transcript keeps the reply as the model wrote it.
func TestTextProtocolAnswerShownWithoutPrefix(t *testing.T) {
	prov := &providertest.Scripted{Respond: refusesTools(func(int, provider.Request) providertest.Step {
		return providertest.Text("Looked at it.\n**text:** all **done**\nsecond line")
	})}
	h := newHarnessWith(t, prov, memory.New(), Config{PermissionMode: permission.ModeBypass}, bashFake())
	if res := h.submit(context.Background(), "go"); res.FinalText != "all **done**\nsecond line" {
		t.Fatalf("final text %q", res.FinalText)
	}
	var shown []event.MessageCompletedData
	for _, ev := range eventsOf(h.events(), event.MessageCompleted) {
		if d := mustDecode[event.MessageCompletedData](t, ev); d.Role == "assistant" {
			shown = append(shown, d)
		}
	}
	if len(shown) != 1 || shown[0].Text != "all **done**\nsecond line" || shown[0].Reasoning != "Looked at it." {
		t.Fatalf("message.completed: %+v", shown)
	}
	msgs, err := h.store.ListMessages(context.Background(), h.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := msgs[len(msgs)-1]; !strings.Contains(last.Text(), "**text:** all") {
		t.Fatalf("the stored reply lost its prefix: %q", last.Text())
	}
}

func TestTextProtocolCommandGoesThroughPermissions(t *testing.T) {
	for _, c := range []struct {
		name, command string
		mode          permission.Mode
		deny          string
		ran           bool
		by            string
	}{
		{"deny rule", "rm -rf /tmp/x", permission.ModeBypass, "Bash(rm:*)", false, "rule Bash(rm:*)"},
		{"headless ask denies", "touch marker", permission.ModeDefault, "", false, "headless"},
		{"plan mode", "touch marker", permission.ModePlan, "", false, ""},
		{"bypass runs", "touch marker", permission.ModeBypass, "", true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			prov := &providertest.Scripted{Steps: []providertest.Step{providertest.Text("command: " + c.command), providertest.Text("text: ok")}}
			cfg := Config{PermissionMode: c.mode, Protocols: NewMemoryProtocols("fake/m")}
			if c.deny != "" {
				r, err := permission.ParseRule(c.deny)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Rules = cfg.Rules.Add(permission.Deny, r)
			}
			bash := bashFake()
			h := newHarnessWith(t, prov, memory.New(), cfg, bash)
			h.submit(context.Background(), "go")
			if ran := bash.runCount.Load() == 1; ran != c.ran {
				t.Fatalf("ran = %v, want %v", ran, c.ran)
			}
			audit, err := h.store.ListAudit(context.Background(), h.sess.ID, 0)
			if err != nil || len(audit) != 1 || audit[0].Tool != "Bash" {
				t.Fatalf("audit: %+v %v", audit, err)
			}
			if !c.ran {
				done := eventsOf(h.events(), event.ToolCompleted)
				d := mustDecode[event.ToolCompletedData](t, done[0])
				if !d.IsError || !strings.HasPrefix(d.Output, "Permission denied") || (c.by != "" && d.DeniedBy != c.by) {
					t.Fatalf("completed: %+v", d)
				}
			}
		})
	}
}

func TestTextProtocolMalformedAnswersAreCorrectedThenTaken(t *testing.T) {
	prov := &providertest.Scripted{Steps: []providertest.Step{
		providertest.Text("I think so."), providertest.Text("Still thinking."), providertest.Text("text: yes"),
	}}
	h := newHarnessWith(t, prov, memory.New(), Config{Protocols: NewMemoryProtocols("fake/m")})
	res := h.submit(context.Background(), "q")
	if res.FinalText != "yes" || prov.Calls() != 3 {
		t.Fatalf("%+v after %d calls", res, prov.Calls())
	}
	n := 0
	for _, m := range h.messages() {
		if m.Role == message.RoleUser && m.Text() == malformedMessage {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d corrective messages", n)
	}

	// Past the retries the last answer stands, with a warning.
	prov = &providertest.Scripted{Loop: &providertest.Step{Events: providertest.TextEvents("no prefix")}}
	h = newHarnessWith(t, prov, memory.New(), Config{Protocols: NewMemoryProtocols("fake/m")})
	res = h.submit(context.Background(), "q")
	if res.Outcome != OutcomeCompleted || res.FinalText != "no prefix" || prov.Calls() != malformedRetries+1 {
		t.Fatalf("%+v after %d calls", res, prov.Calls())
	}
}
