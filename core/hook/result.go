package hook

import (
	"encoding/json"
	"strings"
)

// Notes is what every event's result carries besides its decision: things for the
// user and for the turn. All lists are in configuration order.
type Notes struct {
	// Stop is set when a hook printed "continue": false. The caller ends the turn
	// after answering what is in flight and shows StopReason to the user (not to
	// the model). In Claude Code this takes precedence over every decision.
	Stop       bool
	StopReason string
	// SystemMessages are the hooks' systemMessage texts, shown to the user.
	SystemMessages []string
	// Errors are non-blocking failures (an exit status other than 0 and 2, a
	// timeout, a hook that could not start, malformed JSON), shown to the user;
	// execution continues as if the hook had said nothing.
	Errors []string
	// Output is stdout that had no other use (plain text, or the JSON of a hook
	// that did not set suppressOutput), for a verbose view only.
	Output []string
}

// PreToolResult is the outcome of the PreToolUse hooks of one tool call.
type PreToolResult struct {
	// Decision is the strongest of the hooks' decisions (deny > ask > allow), or
	// "" when none decided and the normal permission flow applies. Exit status 2
	// and the legacy top-level "decision": "block" count as deny, "approve" as
	// allow. Allow only skips the approval prompt: deny rules still apply.
	Decision Decision
	// Reason is the reasons of the hooks that chose Decision, one per line. Deny:
	// it goes to the model as the tool result. Ask: it is shown in the approval
	// prompt. Allow: informational.
	Reason string
	// UpdatedInput, when set, replaces the tool input (a JSON object) before the
	// permission decision and the run; with Ask it is what the person approves.
	// It is nil when Decision is Deny. When several hooks rewrite the input, the
	// first in configuration order wins and the conflict is reported in Errors.
	UpdatedInput json.RawMessage
	Notes
}

// PostToolResult is the outcome of the PostToolUse hooks of one tool call.
type PostToolResult struct {
	// Block is set by exit status 2 or "decision": "block". The tool has already
	// run; Reason is fed to the model alongside the tool result.
	Block  bool
	Reason string
	// AdditionalContext is the hooks' hookSpecificOutput.additionalContext, for
	// the model.
	AdditionalContext string
	Notes
}

// PromptResult is the outcome of the UserPromptSubmit hooks of one prompt.
type PromptResult struct {
	// Block: the prompt is not processed (nor stored as a turn); Reason is shown
	// to the user, not the model. Set by exit status 2 (stderr), "decision":
	// "block" (reason) and "continue": false (stopReason).
	Block  bool
	Reason string
	// AdditionalContext is added for the model with the prompt: plain stdout of
	// hooks that exited 0, and hookSpecificOutput.additionalContext.
	AdditionalContext string
	Notes
}

// StopResult is the outcome of the Stop hooks at the end of a model response.
type StopResult struct {
	// Block: the model must continue, with Reason as its next input. Set by exit
	// status 2 (stderr) and "decision": "block" (reason). Never set together with
	// Notes.Stop: "continue": false wins and the agent stops. The caller passes
	// stopHookActive=true on the run that follows a block, and should bound the
	// number of blocks per turn.
	Block  bool
	Reason string
	Notes
}

// SessionStartResult is the outcome of the SessionStart hooks.
type SessionStartResult struct {
	// AdditionalContext is added for the model at the start of the session: plain
	// stdout of hooks that exited 0, and hookSpecificOutput.additionalContext.
	AdditionalContext string
	Notes
}

// PreCompactResult is the outcome of the PreCompact hooks.
type PreCompactResult struct {
	// Block: the compaction does not happen (Claude Code honours exit status 2
	// and "decision": "block" for PreCompact since 2.1.105); Reason is for the user.
	Block  bool
	Reason string
	Notes
}

// combined is every verdict of one event folded together.
type combined struct {
	decision     Decision
	reasons      []string // of the verdicts whose decision is decision
	block        bool
	blockReasons []string
	updatedInput json.RawMessage
	contexts     []string
	Notes
}

// combine folds verdicts, given in configuration order.
func combine(vs []verdict) combined {
	var c combined
	for _, v := range vs {
		if v.decision.rank() > c.decision.rank() {
			c.decision, c.reasons = v.decision, nil
		}
		if v.decision != "" && v.decision == c.decision && v.reason != "" {
			c.reasons = append(c.reasons, v.reason)
		}
		if v.block {
			c.block = true
			c.blockReasons = append(c.blockReasons, v.reason)
		}
		if v.updatedInput != nil && v.decision != Deny {
			if c.updatedInput == nil {
				c.updatedInput = v.updatedInput
			} else if !sameJSON(c.updatedInput, v.updatedInput) {
				c.Errors = append(c.Errors, "several hooks rewrote the tool input differently; the first in configuration order was used")
			}
		}
		if v.context != "" {
			c.contexts = append(c.contexts, v.context)
		}
		if v.stop {
			if !c.Stop || c.StopReason == "" {
				c.StopReason = v.stopReason
			}
			c.Stop = true
		}
		add(&c.SystemMessages, v.message)
		add(&c.Errors, v.err)
		add(&c.Output, v.output)
	}
	return c
}

// preTool projects c onto PreToolUse. A stop makes the call a denial, so that a
// caller that only looks at Decision still does not run it.
func (c combined) preTool() PreToolResult {
	r := PreToolResult{Decision: c.decision, Reason: strings.Join(c.reasons, "\n"), Notes: c.Notes}
	if c.Stop && r.Decision != Deny {
		r.Decision, r.Reason = Deny, "Stopped by hook"
		if c.StopReason != "" {
			r.Reason += ": " + c.StopReason
		}
	}
	if r.Decision != Deny {
		r.UpdatedInput = c.updatedInput
	}
	return r
}

func (c combined) postTool() PostToolResult {
	return PostToolResult{Block: c.block, Reason: strings.Join(c.blockReasons, "\n"),
		AdditionalContext: strings.Join(c.contexts, "\n"), Notes: c.Notes}
}

// prompt projects c onto UserPromptSubmit; a stop blocks the prompt.
func (c combined) prompt() PromptResult {
	r := PromptResult{Block: c.block, Reason: strings.Join(c.blockReasons, "\n"),
		AdditionalContext: strings.Join(c.contexts, "\n"), Notes: c.Notes}
	if c.Stop && !r.Block {
		r.Block, r.Reason = true, c.StopReason
	}
	return r
}

// stop projects c onto Stop; "continue": false wins over a block.
func (c combined) stop() StopResult {
	if c.Stop {
		return StopResult{Notes: c.Notes}
	}
	return StopResult{Block: c.block, Reason: strings.Join(c.blockReasons, "\n"), Notes: c.Notes}
}

func (c combined) sessionStart() SessionStartResult {
	return SessionStartResult{AdditionalContext: strings.Join(c.contexts, "\n"), Notes: c.Notes}
}

func (c combined) preCompact() PreCompactResult {
	return PreCompactResult{Block: c.block, Reason: strings.Join(c.blockReasons, "\n"), Notes: c.Notes}
}

// add appends s to *list when it is not empty.
func add(list *[]string, s string) {
	if s != "" {
		*list = append(*list, s)
	}
}

// sameJSON reports whether a and b encode the same value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
