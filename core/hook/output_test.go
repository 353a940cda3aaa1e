package hook

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestInterpret covers "Hook output" of Claude Code's reference, event by event,
// without running processes.
func TestInterpret(t *testing.T) {
	ok := func(stdout string) execResult { return execResult{stdout: stdout} }
	exit2 := execResult{exit: 2, stdout: `{"decision":"approve"}`, stderr: "no way\n"}
	tests := []struct {
		name string
		ev   Event
		res  execResult
		want verdict
	}{
		{"empty success", PreToolUse, ok(""), verdict{}},
		{"plain stdout pre", PreToolUse, ok("hello\n"), verdict{output: "hello"}},
		{"plain stdout prompt is context", UserPromptSubmit, ok("ctx\n"), verdict{context: "ctx"}},
		{"plain stdout session start is context", SessionStart, ok("ctx"), verdict{context: "ctx"}},
		{"plain stdout post", PostToolUse, ok("x"), verdict{output: "x"}},
		{"json array is text", PostToolUse, ok("[1]"), verdict{output: "[1]"}},
		{"broken json is text", SessionStart, ok("{not json"), verdict{context: "{not json"}},

		{"exit 2 pre denies, stdout ignored", PreToolUse, exit2, verdict{decision: Deny, reason: "no way"}},
		{"exit 2 post blocks", PostToolUse, exit2, verdict{block: true, reason: "no way"}},
		{"exit 2 prompt blocks", UserPromptSubmit, exit2, verdict{block: true, reason: "no way"}},
		{"exit 2 stop blocks", Stop, exit2, verdict{block: true, reason: "no way"}},
		{"exit 2 precompact blocks", PreCompact, exit2, verdict{block: true, reason: "no way"}},
		{"exit 2 session start only errs", SessionStart, exit2,
			verdict{err: `SessionStart hook "x" exited with status 2: no way`}},
		{"exit 2 session end only errs", SessionEnd, exit2,
			verdict{err: `SessionEnd hook "x" exited with status 2: no way`}},
		{"exit 2 without stderr", PreToolUse, execResult{exit: 2},
			verdict{decision: Deny, reason: `PreToolUse hook "x" exited with status 2 and gave no reason`}},

		{"exit 1 non-blocking", PreToolUse, execResult{exit: 1, stderr: "oops\n"},
			verdict{err: `PreToolUse hook "x" failed with non-blocking status code 1: oops`}},
		{"exit 127 without stderr", Stop, execResult{exit: 127},
			verdict{err: `Stop hook "x" failed with non-blocking status code 127: No stderr output`}},
		{"timeout", PreToolUse, execResult{exit: 143, timedOut: true, stderr: "partial"},
			verdict{err: `PreToolUse hook "x" timed out and was killed: partial`}},
		{"cancelled", PreToolUse, execResult{exit: 143, canceled: true},
			verdict{err: `PreToolUse hook "x" was cancelled`}},

		{"allow", PreToolUse, ok(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`),
			verdict{decision: Allow, reason: "fine", output: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`}},
		{"ask", PreToolUse, ok(`{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"},"suppressOutput":true}`),
			verdict{decision: Ask, reason: "sure?"}},
		{"deny", PreToolUse, ok(`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"},"suppressOutput":true}`),
			verdict{decision: Deny, reason: "no"}},
		{"legacy approve", PreToolUse, ok(`{"decision":"approve","reason":"ok","suppressOutput":true}`),
			verdict{decision: Allow, reason: "ok"}},
		{"legacy block", PreToolUse, ok(`{"decision":"block","reason":"bad","suppressOutput":true}`),
			verdict{decision: Deny, reason: "bad"}},
		{"specific wins over legacy", PreToolUse, ok(`{"decision":"block","reason":"bad","hookSpecificOutput":{"permissionDecision":"allow"},"suppressOutput":true}`),
			verdict{decision: Allow}},
		{"updated input", PreToolUse, ok(`{"hookSpecificOutput":{"updatedInput":{"a":1}},"suppressOutput":true}`),
			verdict{updatedInput: json.RawMessage(`{"a":1}`)}},
		{"updated input not an object", PreToolUse, ok(`{"hookSpecificOutput":{"updatedInput":[1]},"suppressOutput":true}`),
			verdict{err: `PreToolUse hook "x" output ignored in part: updatedInput is not a JSON object`}},
		{"unknown decision", PreToolUse, ok(`{"hookSpecificOutput":{"permissionDecision":"defer"},"suppressOutput":true}`),
			verdict{err: `PreToolUse hook "x" output ignored in part: unknown permissionDecision "defer"`}},
		{"wrong field type", PreToolUse, ok(`{"continue":"yes"}`),
			verdict{err: `PreToolUse hook "x" printed invalid JSON output: json: cannot unmarshal string into Go struct field output.continue of type bool`, output: `{"continue":"yes"}`}},

		{"post block + context", PostToolUse, ok(`{"decision":"block","reason":"lint failed","hookSpecificOutput":{"additionalContext":"see log"},"suppressOutput":true}`),
			verdict{block: true, reason: "lint failed", context: "see log"}},
		{"post block without reason", PostToolUse, ok(`{"decision":"block","suppressOutput":true}`),
			verdict{block: true, reason: `PostToolUse hook "x" blocked without a reason`}},
		{"prompt context json", UserPromptSubmit, ok(`{"hookSpecificOutput":{"additionalContext":"it is monday"},"suppressOutput":true}`),
			verdict{context: "it is monday"}},
		{"stop block", Stop, ok(`{"decision":"block","reason":"tests fail","suppressOutput":true}`),
			verdict{block: true, reason: "tests fail"}},
		{"session start ignores decision", SessionStart, ok(`{"decision":"block","hookSpecificOutput":{"additionalContext":"c"},"suppressOutput":true}`),
			verdict{context: "c"}},
		{"pre ignores additional context", PreToolUse, ok(`{"hookSpecificOutput":{"additionalContext":"c"},"suppressOutput":true}`),
			verdict{}},
		{"common fields", SessionEnd, ok(`{"continue":false,"stopReason":"bye","systemMessage":"note"}`),
			verdict{stop: true, stopReason: "bye", message: "note", output: `{"continue":false,"stopReason":"bye","systemMessage":"note"}`}},
		{"continue true", Stop, ok(`{"continue":true,"suppressOutput":true}`), verdict{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := interpret(tt.ev, "x", tt.res)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("interpret =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestInterpretStartFailure(t *testing.T) {
	v := interpret(PreToolUse, "x", execResult{exit: -1, err: errString("no shell")})
	if v.decision != "" || !strings.Contains(v.err, "could not start: no shell") {
		t.Errorf("got %+v", v)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestDescribe(t *testing.T) {
	got := describe(PreToolUse, "  a\n  b ")
	if got != `PreToolUse hook "a b"` {
		t.Errorf("describe = %s", got)
	}
	long := describe(Stop, strings.Repeat("x", 100))
	if !strings.HasSuffix(long, `..."`) || len(long) > 80 {
		t.Errorf("describe long = %s", long)
	}
}

// TestCombine covers aggregation: deny > ask > allow, reasons of the winner only,
// first updatedInput, stops, and the projection per event.
func TestCombine(t *testing.T) {
	in1, in2 := json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":2}`)
	tests := []struct {
		name string
		vs   []verdict
		want PreToolResult
	}{
		{"none", nil, PreToolResult{}},
		{"allow", []verdict{{decision: Allow, reason: "a"}}, PreToolResult{Decision: Allow, Reason: "a"}},
		{"ask beats allow", []verdict{{decision: Allow, reason: "a"}, {decision: Ask, reason: "q"}},
			PreToolResult{Decision: Ask, Reason: "q"}},
		{"deny beats ask and allow", []verdict{{decision: Ask, reason: "q"}, {decision: Deny, reason: "d1"}, {decision: Allow}, {decision: Deny, reason: "d2"}},
			PreToolResult{Decision: Deny, Reason: "d1\nd2"}},
		{"no decision keeps allow", []verdict{{}, {decision: Allow}}, PreToolResult{Decision: Allow}},
		{"updated input first wins", []verdict{{decision: Allow, updatedInput: in1}, {updatedInput: in2}},
			PreToolResult{Decision: Allow, UpdatedInput: in1, Notes: Notes{Errors: []string{"several hooks rewrote the tool input differently; the first in configuration order was used"}}}},
		{"same rewrite twice is no conflict", []verdict{{updatedInput: in1}, {updatedInput: json.RawMessage(`{ "a" : 1 }`)}},
			PreToolResult{UpdatedInput: in1}},
		{"deny drops updated input", []verdict{{updatedInput: in1}, {decision: Deny, reason: "no"}},
			PreToolResult{Decision: Deny, Reason: "no"}},
		{"deny's own rewrite ignored", []verdict{{decision: Deny, updatedInput: in1}, {updatedInput: in2, decision: Allow}},
			PreToolResult{Decision: Deny}},
		{"stop denies", []verdict{{decision: Allow}, {stop: true, stopReason: "enough"}},
			PreToolResult{Decision: Deny, Reason: "Stopped by hook: enough", Notes: Notes{Stop: true, StopReason: "enough"}}},
		{"notes in order", []verdict{{message: "m1", err: "e1", output: "o1"}, {message: "m2", output: "o2"}, {err: "e2"}},
			PreToolResult{Notes: Notes{SystemMessages: []string{"m1", "m2"}, Errors: []string{"e1", "e2"}, Output: []string{"o1", "o2"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := combine(tt.vs).preTool(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestCombineProjections(t *testing.T) {
	vs := []verdict{{block: true, reason: "r1", context: "c1"}, {context: "c2"}, {block: true, reason: "r2"}}
	c := combine(vs)
	if got, want := c.postTool(), (PostToolResult{Block: true, Reason: "r1\nr2", AdditionalContext: "c1\nc2"}); !reflect.DeepEqual(got, want) {
		t.Errorf("postTool = %+v", got)
	}
	if got, want := c.prompt(), (PromptResult{Block: true, Reason: "r1\nr2", AdditionalContext: "c1\nc2"}); !reflect.DeepEqual(got, want) {
		t.Errorf("prompt = %+v", got)
	}
	if got, want := c.stop(), (StopResult{Block: true, Reason: "r1\nr2"}); !reflect.DeepEqual(got, want) {
		t.Errorf("stop = %+v", got)
	}
	if got, want := c.sessionStart(), (SessionStartResult{AdditionalContext: "c1\nc2"}); !reflect.DeepEqual(got, want) {
		t.Errorf("sessionStart = %+v", got)
	}
	if got, want := c.preCompact(), (PreCompactResult{Block: true, Reason: "r1\nr2"}); !reflect.DeepEqual(got, want) {
		t.Errorf("preCompact = %+v", got)
	}

	// "continue": false wins over a Stop block, and blocks a prompt.
	stopped := combine([]verdict{{block: true, reason: "go on"}, {stop: true, stopReason: "halt"}})
	if got := stopped.stop(); got.Block || !got.Stop || got.StopReason != "halt" {
		t.Errorf("stop with continue:false = %+v", got)
	}
	if got := combine([]verdict{{stop: true, stopReason: "halt"}}).prompt(); !got.Block || got.Reason != "halt" {
		t.Errorf("prompt with continue:false = %+v", got)
	}
	// The first non-empty stopReason is kept.
	if got := combine([]verdict{{stop: true}, {stop: true, stopReason: "b"}, {stop: true, stopReason: "c"}}); got.StopReason != "b" {
		t.Errorf("stopReason = %q", got.StopReason)
	}
}
