package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Decision is a PreToolUse hook's verdict on a tool call, with Claude Code's
// permissionDecision values.
type Decision string

// The decisions, weakest first. The zero Decision means no hook decided.
const (
	// Allow skips the approval prompt. It never overrides a deny rule, a
	// hard-denied command or the sandbox (Claude Code: "allow" bypasses the
	// permission prompt, not deny rules); the caller enforces that.
	Allow Decision = "allow"
	// Ask sends the call to the approval prompt even where the mode would allow it.
	Ask Decision = "ask"
	// Deny refuses the call; the reason goes to the model.
	Deny Decision = "deny"
)

// rank orders decisions for aggregation: deny > ask > allow > none.
func (d Decision) rank() int {
	switch d {
	case Allow:
		return 1
	case Ask:
		return 2
	case Deny:
		return 3
	}
	return 0
}

// output is the JSON a hook may print on stdout with exit status 0 ("Advanced:
// JSON output"): the common fields, the top-level decision of some events, and
// hookSpecificOutput.
type output struct {
	Continue       *bool  `json:"continue"`
	StopReason     string `json:"stopReason"`
	SuppressOutput bool   `json:"suppressOutput"`
	SystemMessage  string `json:"systemMessage"`

	// Decision is "block" (PostToolUse, UserPromptSubmit, Stop, PreCompact) or,
	// for PreToolUse, the legacy "approve" / "block".
	Decision string `json:"decision"`
	Reason   string `json:"reason"`

	Specific *struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        string          `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// verdict is what one hook run means for its event, before aggregation.
type verdict struct {
	decision     Decision        // PreToolUse only
	block        bool            // PostToolUse, UserPromptSubmit, Stop, PreCompact
	reason       string          // of the decision or the block
	updatedInput json.RawMessage // PreToolUse only; a JSON object
	context      string          // text for the model
	stop         bool            // continue: false
	stopReason   string
	message      string // systemMessage, for the user
	err          string // a non-blocking error, for the user
	output       string // plain stdout, for verbose display
}

// interpret turns one hook run into a verdict for ev, following "Hook output" in
// Claude Code's reference: exit 0 reads stdout (JSON or text), exit 2 blocks with
// stderr as the reason where ev can be blocked, anything else — including a
// timeout, a cancellation or a start failure — is a non-blocking error.
func interpret(ev Event, command string, res execResult) verdict {
	name := describe(ev, command)
	switch {
	case res.err != nil:
		return verdict{err: fmt.Sprintf("%s could not start: %v", name, res.err)}
	case res.timedOut:
		return verdict{err: name + " timed out and was killed" + stderrNote(res.stderr)}
	case res.canceled:
		return verdict{err: name + " was cancelled" + stderrNote(res.stderr)}
	case res.exit == 2:
		return blocking(ev, name, strings.TrimSpace(res.stderr))
	case res.exit != 0:
		msg := strings.TrimSpace(res.stderr)
		if msg == "" {
			msg = "No stderr output"
		}
		return verdict{err: fmt.Sprintf("%s failed with non-blocking status code %d: %s", name, res.exit, msg)}
	}
	out, isJSON, err := parseOutput(res.stdout)
	if err != nil {
		return verdict{err: fmt.Sprintf("%s printed invalid JSON output: %v", name, err), output: strings.TrimSpace(res.stdout)}
	}
	if !isJSON {
		text := strings.TrimSpace(res.stdout)
		if ev == UserPromptSubmit || ev == SessionStart {
			return verdict{context: text}
		}
		return verdict{output: text}
	}
	v := fromJSON(ev, name, out)
	if !out.SuppressOutput {
		v.output = strings.TrimSpace(res.stdout)
	}
	return v
}

// blocking is exit status 2 ("Exit code 2 behavior"): stderr is the reason.
func blocking(ev Event, name, stderr string) verdict {
	reason := stderr
	if reason == "" {
		reason = name + " exited with status 2 and gave no reason"
	}
	switch ev {
	case PreToolUse:
		return verdict{decision: Deny, reason: reason}
	case PostToolUse, UserPromptSubmit, Stop, PreCompact:
		return verdict{block: true, reason: reason}
	}
	// SessionStart, SessionEnd: nothing to block; stderr is shown to the user.
	return verdict{err: fmt.Sprintf("%s exited with status 2: %s", name, reason)}
}

// fromJSON reads the fields of out that ev understands and ignores the rest.
func fromJSON(ev Event, name string, out *output) verdict {
	v := verdict{message: out.SystemMessage}
	if out.Continue != nil && !*out.Continue {
		v.stop, v.stopReason = true, out.StopReason
	}
	var bad []string
	switch ev {
	case PreToolUse:
		// hookSpecificOutput wins over the deprecated top-level decision.
		switch out.Decision {
		case "approve":
			v.decision, v.reason = Allow, out.Reason
		case "block":
			v.decision, v.reason = Deny, out.Reason
		case "":
		default:
			bad = append(bad, fmt.Sprintf("unknown decision %q", out.Decision))
		}
		if s := out.Specific; s != nil {
			switch d := Decision(s.PermissionDecision); d {
			case Allow, Ask, Deny:
				v.decision, v.reason = d, s.PermissionDecisionReason
			case "":
			default:
				bad = append(bad, fmt.Sprintf("unknown permissionDecision %q", s.PermissionDecision))
			}
			if len(s.UpdatedInput) > 0 && string(s.UpdatedInput) != "null" {
				if isObject(s.UpdatedInput) {
					v.updatedInput = s.UpdatedInput
				} else {
					bad = append(bad, "updatedInput is not a JSON object")
				}
			}
		}
	case PostToolUse, UserPromptSubmit, Stop, PreCompact:
		switch out.Decision {
		case "block":
			v.block, v.reason = true, out.Reason
			if v.reason == "" {
				v.reason = name + " blocked without a reason"
			}
		case "", "approve": // "approve" is the legacy way of saying nothing
		default:
			bad = append(bad, fmt.Sprintf("unknown decision %q", out.Decision))
		}
	}
	if s := out.Specific; s != nil && s.AdditionalContext != "" {
		switch ev {
		case PostToolUse, UserPromptSubmit, SessionStart:
			v.context = s.AdditionalContext
		}
	}
	if len(bad) > 0 {
		v.err = fmt.Sprintf("%s output ignored in part: %s", name, strings.Join(bad, "; "))
	}
	return v
}

// parseOutput reads stdout as hook JSON when it is a JSON object. Anything else
// (empty, plain text, a JSON array) is plain text; an object with fields of the
// wrong type is an error.
func parseOutput(stdout string) (*output, bool, error) {
	b := bytes.TrimSpace([]byte(stdout))
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return nil, false, nil
	}
	var out output
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, true, err
	}
	return &out, true, nil
}

// describe names a hook in messages: its event and its command, shortened.
func describe(ev Event, command string) string {
	c := strings.Join(strings.Fields(command), " ")
	if r := []rune(c); len(r) > 60 {
		c = string(r[:57]) + "..."
	}
	return fmt.Sprintf("%s hook %q", ev, c)
}

// stderrNote appends a hook's stderr to a message, when there is any.
func stderrNote(stderr string) string {
	if s := strings.TrimSpace(stderr); s != "" {
		return ": " + s
	}
	return ""
}
