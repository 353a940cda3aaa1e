package hook

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var bashInput = json.RawMessage(`{"command":"rm -rf /"}`)

func TestPreToolUseExit2Denies(t *testing.T) {
	proj := t.TempDir()
	r := one(t, proj, PreToolUse, "Bash", script(t, proj, "guard.sh", `cat >/dev/null; echo '{"decision":"approve"}'; echo "rm is not allowed" >&2; exit 2`))
	got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "call-1")
	if got.Decision != Deny || got.Reason != "rm is not allowed" {
		t.Errorf("got %+v", got)
	}
}

func TestPreToolUseJSONDecisions(t *testing.T) {
	for _, d := range []Decision{Allow, Deny, Ask} {
		t.Run(string(d), func(t *testing.T) {
			proj := t.TempDir()
			out := `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "` + string(d) +
				`", "permissionDecisionReason": "because ` + string(d) + `"}, "suppressOutput": true}`
			r := one(t, proj, PreToolUse, "", script(t, proj, "h.sh", "echo '"+out+"'"))
			got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
			want := PreToolResult{Decision: d, Reason: "because " + string(d)}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestPreToolUseLegacyDecision(t *testing.T) {
	proj := t.TempDir()
	r := one(t, proj, PreToolUse, "", script(t, proj, "h.sh", `echo '{"decision": "block", "reason": "legacy no"}'`))
	if got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c"); got.Decision != Deny || got.Reason != "legacy no" {
		t.Errorf("got %+v", got)
	}
}

func TestPreToolUseUpdatedInput(t *testing.T) {
	proj := t.TempDir()
	// The hook rewrites the command it read on stdin.
	h := script(t, proj, "rewrite.sh", `in=$(cat)
case "$in" in *'"rm -rf /"'*) ;; *) echo "unexpected input: $in" >&2; exit 1 ;; esac
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo safe"}}}'`)
	r := one(t, proj, PreToolUse, "Bash", h)
	got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	if got.Decision != Allow || string(got.UpdatedInput) != `{"command": "echo safe"}` || len(got.Errors) > 0 {
		t.Errorf("got %+v (input %s)", got, got.UpdatedInput)
	}
}

func TestPreToolUseNonBlockingError(t *testing.T) {
	proj := t.TempDir()
	r := one(t, proj, PreToolUse, "", script(t, proj, "h.sh", `echo "disk full" >&2; exit 1`))
	got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	if got.Decision != "" || len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "status code 1: disk full") {
		t.Errorf("got %+v", got)
	}
	// A command that does not exist is a non-blocking error too (exit 127).
	r = one(t, proj, PreToolUse, "", "./no-such-hook.sh")
	got = r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
	if got.Decision != "" || len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "status code 127") {
		t.Errorf("got %+v", got)
	}
}

// TestPrecedence: deny > ask > allow across hooks that run together.
func TestPrecedence(t *testing.T) {
	proj := t.TempDir()
	hook := func(name string, d Decision) Def {
		return Def{Command: script(t, proj, name, `echo '{"hookSpecificOutput": {"permissionDecision": "`+string(d)+`", "permissionDecisionReason": "`+name+`"}, "suppressOutput": true}'`)}
	}
	allow, ask, deny := hook("allow.sh", Allow), hook("ask.sh", Ask), hook("deny.sh", Deny)
	tests := []struct {
		defs []Def
		want Decision
	}{
		{[]Def{allow}, Allow},
		{[]Def{allow, ask}, Ask},
		{[]Def{ask, allow}, Ask},
		{[]Def{allow, deny, ask}, Deny},
		{[]Def{deny, allow}, Deny},
	}
	for _, tt := range tests {
		r := runner(t, proj, map[Event][]Def{PreToolUse: tt.defs})
		got := r.PreToolUse(t.Context(), Common{}, "Bash", bashInput, "c")
		if got.Decision != tt.want || got.Reason != string(tt.want)+".sh" {
			t.Errorf("%d hooks: got %+v, want %s", len(tt.defs), got, tt.want)
		}
	}
}

// TestMatcherForms: which hooks run for which tool names.
func TestMatcherForms(t *testing.T) {
	proj := t.TempDir()
	var defs []Def
	for _, m := range []string{"", "*", "Edit|Write", "Bash", "mcp__.*", "Notebook.*"} {
		cmd := script(t, proj, "m"+string(rune('a'+len(defs)))+".sh", `echo '{"systemMessage": "<`+m+`>", "suppressOutput": true}'`)
		defs = append(defs, Def{Matcher: m, Command: cmd})
	}
	r := runner(t, proj, map[Event][]Def{PreToolUse: defs, PostToolUse: defs})
	tests := map[string][]string{
		"Edit":              {"<>", "<*>", "<Edit|Write>"},
		"Write":             {"<>", "<*>", "<Edit|Write>"},
		"MultiEdit":         {"<>", "<*>"},
		"Bash":              {"<>", "<*>", "<Bash>"},
		"mcp__github__list": {"<>", "<*>", "<mcp__.*>"},
		"NotebookEdit":      {"<>", "<*>", "<Notebook.*>"},
	}
	for tool, want := range tests {
		if got := r.PreToolUse(t.Context(), Common{}, tool, nil, "c").SystemMessages; !slices.Equal(got, want) {
			t.Errorf("PreToolUse %s ran %q, want %q", tool, got, want)
		}
		if got := r.PostToolUse(t.Context(), Common{}, tool, nil, "c", "", false).SystemMessages; !slices.Equal(got, want) {
			t.Errorf("PostToolUse %s ran %q, want %q", tool, got, want)
		}
	}
	// Events without a matcher run every hook.
	r = runner(t, proj, map[Event][]Def{Stop: defs})
	if got := r.Stop(t.Context(), Common{}, false).SystemMessages; len(got) != len(defs) {
		t.Errorf("Stop ran %q", got)
	}
}

func TestPostToolUse(t *testing.T) {
	proj := t.TempDir()
	t.Run("additional context", func(t *testing.T) {
		r := one(t, proj, PostToolUse, "Edit", script(t, proj, "ctx.sh",
			`echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "formatted with gofmt"}}'`))
		got := r.PostToolUse(t.Context(), Common{}, "Edit", nil, "c", "ok", false)
		if got.Block || got.AdditionalContext != "formatted with gofmt" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("decision block", func(t *testing.T) {
		r := one(t, proj, PostToolUse, "", script(t, proj, "block.sh", `echo '{"decision": "block", "reason": "lint: unused variable x"}'`))
		got := r.PostToolUse(t.Context(), Common{}, "Edit", nil, "c", "ok", false)
		if !got.Block || got.Reason != "lint: unused variable x" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("exit 2", func(t *testing.T) {
		r := one(t, proj, PostToolUse, "", script(t, proj, "exit2.sh", `echo "tests now fail" >&2; exit 2`))
		got := r.PostToolUse(t.Context(), Common{}, "Edit", nil, "c", "ok", false)
		if !got.Block || got.Reason != "tests now fail" {
			t.Errorf("got %+v", got)
		}
	})
}

func TestUserPromptSubmit(t *testing.T) {
	proj := t.TempDir()
	t.Run("exit 2 blocks", func(t *testing.T) {
		r := one(t, proj, UserPromptSubmit, "", script(t, proj, "b.sh", `grep -q password && { echo "no secrets in prompts" >&2; exit 2; }; exit 0`))
		got := r.UserPromptSubmit(t.Context(), Common{}, "my password is hunter2")
		if !got.Block || got.Reason != "no secrets in prompts" {
			t.Errorf("got %+v", got)
		}
		if got := r.UserPromptSubmit(t.Context(), Common{}, "hello"); got.Block {
			t.Errorf("harmless prompt blocked: %+v", got)
		}
	})
	t.Run("json block", func(t *testing.T) {
		r := one(t, proj, UserPromptSubmit, "", script(t, proj, "j.sh", `echo '{"decision": "block", "reason": "policy"}'`))
		if got := r.UserPromptSubmit(t.Context(), Common{}, "x"); !got.Block || got.Reason != "policy" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("context", func(t *testing.T) {
		r := runner(t, proj, map[Event][]Def{UserPromptSubmit: {
			{Command: script(t, proj, "plain.sh", `echo "Current branch: main"`)},
			{Command: script(t, proj, "json.sh", `echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Today is Monday"}}'`)},
		}})
		got := r.UserPromptSubmit(t.Context(), Common{}, "x")
		if got.Block || got.AdditionalContext != "Current branch: main\nToday is Monday" {
			t.Errorf("got %+v", got)
		}
	})
}

func TestStopHook(t *testing.T) {
	proj := t.TempDir()
	// Blocks unless it already made the model continue once (stop_hook_active).
	r := one(t, proj, Stop, "", script(t, proj, "stop.sh",
		`grep -q '"stop_hook_active":true' && exit 0; echo "run the tests first" >&2; exit 2`))
	if got := r.Stop(t.Context(), Common{}, false); !got.Block || got.Reason != "run the tests first" {
		t.Errorf("first stop: %+v", got)
	}
	if got := r.Stop(t.Context(), Common{}, true); got.Block {
		t.Errorf("second stop: %+v", got)
	}
	r = one(t, proj, Stop, "", script(t, proj, "json.sh", `echo '{"decision": "block", "reason": "not done"}'`))
	if got := r.Stop(t.Context(), Common{}, false); !got.Block || got.Reason != "not done" {
		t.Errorf("json stop: %+v", got)
	}
	r = one(t, proj, Stop, "", script(t, proj, "halt.sh", `echo '{"decision": "block", "reason": "x", "continue": false, "stopReason": "halt"}'`))
	if got := r.Stop(t.Context(), Common{}, false); got.Block || !got.Stop || got.StopReason != "halt" {
		t.Errorf("continue false: %+v", got)
	}
}

func TestSessionStart(t *testing.T) {
	proj := t.TempDir()
	r := runner(t, proj, map[Event][]Def{SessionStart: {
		{Matcher: "startup|resume", Command: script(t, proj, "a.sh", `echo "open issues: 3"`)},
		{Matcher: "clear", Command: script(t, proj, "b.sh", `echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "fresh start"}}'`)},
		{Command: script(t, proj, "c.sh", `echo "oops" >&2; exit 2`)},
	}})
	got := r.SessionStart(t.Context(), Common{}, "startup")
	if got.AdditionalContext != "open issues: 3" || len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "oops") {
		t.Errorf("startup: %+v", got)
	}
	if got := r.SessionStart(t.Context(), Common{}, "clear"); got.AdditionalContext != "fresh start" {
		t.Errorf("clear: %+v", got)
	}
}

func TestPreCompactAndSessionEnd(t *testing.T) {
	proj := t.TempDir()
	r := runner(t, proj, map[Event][]Def{
		PreCompact: {{Matcher: "auto", Command: script(t, proj, "pc.sh", `echo "task in flight" >&2; exit 2`)}},
		SessionEnd: {{Command: script(t, proj, "end.sh", `echo '{"systemMessage": "bye"}'; exit 0`)}},
	})
	if got := r.PreCompact(t.Context(), Common{}, "auto", ""); !got.Block || got.Reason != "task in flight" {
		t.Errorf("auto: %+v", got)
	}
	if got := r.PreCompact(t.Context(), Common{}, "manual", "keep the plan"); got.Block {
		t.Errorf("manual: %+v", got)
	}
	if got := r.SessionEnd(t.Context(), Common{}, "other"); !slices.Equal(got.SystemMessages, []string{"bye"}) {
		t.Errorf("SessionEnd: %+v", got)
	}
}

// TestInputPayload: the JSON on a hook's stdin, per event.
func TestInputPayload(t *testing.T) {
	proj := t.TempDir()
	dump := script(t, proj, "dump.sh", `cat > "$CLAUDE_PROJECT_DIR/in-$(date +%s%N).json"`)
	all := map[Event][]Def{}
	for _, ev := range Events {
		all[ev] = []Def{{Command: dump}}
	}
	r := runner(t, proj, all)
	c := Common{SessionID: "s-1", TranscriptPath: "/tmp/t.jsonl", PermissionMode: "acceptEdits"}
	common := map[string]any{"session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": proj, "permission_mode": "acceptEdits"}
	tests := []struct {
		ev   Event
		call func()
		want map[string]any
	}{
		{PreToolUse, func() { r.PreToolUse(t.Context(), c, "Bash", bashInput, "call-7") },
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "tool_use_id": "call-7"}},
		{PreToolUse, func() { r.PreToolUse(t.Context(), c, "Bash", json.RawMessage("not json"), "call-8") },
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{}, "tool_use_id": "call-8"}},
		{PostToolUse, func() { r.PostToolUse(t.Context(), c, "Bash", bashInput, "call-7", "done\n", true) },
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "tool_use_id": "call-7",
				"tool_response": map[string]any{"output": "done\n", "isError": true}}},
		{UserPromptSubmit, func() { r.UserPromptSubmit(t.Context(), c, "fix the bug") }, map[string]any{"prompt": "fix the bug"}},
		{Stop, func() { r.Stop(t.Context(), c, false) }, map[string]any{"stop_hook_active": false}},
		{SessionStart, func() { r.SessionStart(t.Context(), c, "resume") }, map[string]any{"source": "resume"}},
		{SessionEnd, func() { r.SessionEnd(t.Context(), c, "clear") }, map[string]any{"reason": "clear"}},
		{PreCompact, func() { r.PreCompact(t.Context(), c, "manual", "keep tests") },
			map[string]any{"trigger": "manual", "custom_instructions": "keep tests"}},
	}
	for _, tt := range tests {
		tt.call()
		files, _ := filepath.Glob(filepath.Join(proj, "in-*.json"))
		if len(files) != 1 {
			t.Fatalf("%s: %d input files", tt.ev, len(files))
		}
		got := readJSON(t, files[0])
		want := map[string]any{"hook_event_name": string(tt.ev)}
		for k, v := range common {
			want[k] = v
		}
		for k, v := range tt.want {
			want[k] = v
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s stdin =\n%v\nwant\n%v", tt.ev, got, want)
		}
		removeAll(t, files)
	}
	// An explicit Cwd is passed through.
	r.Stop(t.Context(), Common{Cwd: "/elsewhere"}, true)
	files, _ := filepath.Glob(filepath.Join(proj, "in-*.json"))
	if len(files) != 1 || readJSON(t, files[0])["cwd"] != "/elsewhere" {
		t.Errorf("cwd not passed: %v", files)
	}
}
