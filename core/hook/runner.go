package hook

import (
	"pincer/core/config"

	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Runner runs the hooks of a project. Build one with Load or NewRunner; it is
// immutable and safe for concurrent use. A nil *Runner has no hooks.
type Runner struct {
	projectDir string
	cacheDir   string // SetCacheDir's
	defs       map[Event][]compiled
	shell      string
	killGrace  time.Duration
}

// compiled is a Def with its matcher parsed.
type compiled struct {
	Def
	matcher Matcher
}

// NewRunner returns a Runner for defs, whose commands run in projectDir (made
// absolute). Results list hooks in the order of each event's slice. A definition with an unknown
// event, an empty command or a matcher that does not parse is left out and
// reported; the Runner is never nil.
func NewRunner(defs map[Event][]Def, projectDir string) (*Runner, []error) {
	if abs, err := filepath.Abs(projectDir); err == nil {
		projectDir = abs
	}
	r := &Runner{
		projectDir: projectDir,
		defs:       map[Event][]compiled{},
		shell:      shell(),
		killGrace:  defaultKillGrace,
	}
	var errs []error
	for ev, list := range defs {
		for _, d := range list {
			err := r.addDef(ev, d)
			if err != nil && d.Source != "" {
				err = &config.FileError{Path: d.Source, Err: err}
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return r, errs
}

func (r *Runner) addDef(ev Event, d Def) error {
	if !ev.Valid() {
		return fmt.Errorf("unknown hook event %q", ev)
	}
	if strings.TrimSpace(d.Command) == "" {
		return fmt.Errorf("%s hook with an empty command", ev)
	}
	m, err := ParseMatcher(d.Matcher)
	if err != nil {
		return fmt.Errorf("%s hook %q: %w", ev, d.Command, err)
	}
	r.defs[ev] = append(r.defs[ev], compiled{Def: d, matcher: m})
	return nil
}

// Empty reports whether no hook is defined for any event.
func (r *Runner) Empty() bool {
	if r == nil {
		return true
	}
	for _, list := range r.defs {
		if len(list) > 0 {
			return false
		}
	}
	return true
}

// Has reports whether any hook is defined for ev, whatever its matcher; callers
// may skip building an event's input when it is false.
func (r *Runner) Has(ev Event) bool { return r != nil && len(r.defs[ev]) > 0 }

// Defs returns a copy of the definitions in force, for display.
func (r *Runner) Defs() map[Event][]Def {
	out := map[Event][]Def{}
	if r == nil {
		return out
	}
	for ev, list := range r.defs {
		for _, c := range list {
			out[ev] = append(out[ev], c.Def)
		}
	}
	return out
}

// PreToolUse runs before a tool call's permission decision, with tool_name,
// tool_input (input, a JSON object; anything else is sent as {}) and tool_use_id.
// Exit status 2 denies the call with stderr as the reason; JSON may allow, ask,
// deny (hookSpecificOutput.permissionDecision, or the legacy top-level decision
// approve/block) and rewrite the input (updatedInput). See PreToolResult.
func (r *Runner) PreToolUse(ctx context.Context, c Common, tool string, input json.RawMessage, toolUseID string) PreToolResult {
	return r.run(ctx, PreToolUse, tool, c, map[string]any{
		"tool_name": tool, "tool_input": objectOrEmpty(input), "tool_use_id": toolUseID,
	}).preTool()
}

// PostToolUse runs after a tool call finished, with the PreToolUse fields plus
// tool_response, which pincer sends as {"output": output, "isError": isError}
// (see ToolResponse). Exit status 2 and "decision": "block" feed the reason to
// the model; additionalContext is added for the model. See PostToolResult.
func (r *Runner) PostToolUse(ctx context.Context, c Common, tool string, input json.RawMessage, toolUseID, output string, isError bool) PostToolResult {
	return r.run(ctx, PostToolUse, tool, c, map[string]any{
		"tool_name": tool, "tool_input": objectOrEmpty(input), "tool_use_id": toolUseID,
		"tool_response": ToolResponse{Output: output, IsError: isError},
	}).postTool()
}

// UserPromptSubmit runs when a prompt is submitted, with prompt. Exit status 2
// and "decision": "block" block it (the reason is for the user); stdout of a hook
// that exited 0 and additionalContext are added as context. See PromptResult.
func (r *Runner) UserPromptSubmit(ctx context.Context, c Common, prompt string) PromptResult {
	return r.run(ctx, UserPromptSubmit, "", c, map[string]any{"prompt": prompt}).prompt()
}

// Stop runs when the model finished its response, with stop_hook_active (true
// when the model is already continuing because of a Stop hook). Exit status 2
// and "decision": "block" make the model continue with the reason. See
// StopResult.
func (r *Runner) Stop(ctx context.Context, c Common, stopHookActive bool) StopResult {
	return r.run(ctx, Stop, "", c, map[string]any{"stop_hook_active": stopHookActive}).stop()
}

// SessionStart runs when a session starts, with source: "startup", "resume",
// "clear" or "compact" (the matcher is tested against it). Stdout of hooks that
// exited 0 and additionalContext become context for the model; exit status 2 is
// only shown to the user. See SessionStartResult.
func (r *Runner) SessionStart(ctx context.Context, c Common, source string) SessionStartResult {
	return r.run(ctx, SessionStart, source, c, map[string]any{"source": source}).sessionStart()
}

// SessionEnd runs when a session ends, with reason ("clear", "logout",
// "prompt_input_exit", "other"). It cannot block; the Notes are for the user.
func (r *Runner) SessionEnd(ctx context.Context, c Common, reason string) Notes {
	return r.run(ctx, SessionEnd, "", c, map[string]any{"reason": reason}).Notes
}

// PreCompact runs before compaction, with trigger ("manual" or "auto", tested
// by the matcher) and custom_instructions (what the person passed to a manual
// compaction, else ""). Exit status 2 and "decision": "block" cancel the
// compaction. See PreCompactResult.
func (r *Runner) PreCompact(ctx context.Context, c Common, trigger, customInstructions string) PreCompactResult {
	return r.run(ctx, PreCompact, trigger, c, map[string]any{
		"trigger": trigger, "custom_instructions": customInstructions,
	}).preCompact()
}

// run starts every hook of ev whose matcher selects target at once, waits for all
// of them, and combines their verdicts in configuration order. Identical commands
// run once (Claude Code deduplicates them too).
func (r *Runner) run(ctx context.Context, ev Event, target string, c Common, fields map[string]any) combined {
	hooks := r.matching(ev, target)
	if len(hooks) == 0 {
		return combined{}
	}
	in := input(ev, c, r.projectDir, fields)
	verdicts := make([]verdict, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Go(func() {
			verdicts[i] = interpret(ev, h.Command, r.exec(ctx, h.Command, h.Timeout, in))
			if h.Origin != "" && verdicts[i].reason != "" {
				verdicts[i].reason = "[" + h.Origin + "] " + verdicts[i].reason
			}
		})
	}
	wg.Wait()
	return combine(verdicts)
}

// matching returns the hooks of ev selected by target, without repeated commands.
func (r *Runner) matching(ev Event, target string) []compiled {
	if r == nil {
		return nil
	}
	var out []compiled
	seen := map[string]bool{}
	for _, h := range r.defs[ev] {
		if ev.usesMatcher() && !h.matcher.Match(target) {
			continue
		}
		if seen[h.Command] {
			continue
		}
		seen[h.Command] = true
		out = append(out, h)
	}
	return out
}

// SetCacheDir makes hooks keep their package managers' caches under dir
// (see hookEnv); "" leaves the person's. Call it before the first hook runs.
func (r *Runner) SetCacheDir(dir string) { r.cacheDir = dir }
