package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"pincer/sandbox"
)

//go:embed bash.md
var bashDescription string

// Bash limits, as Claude Code's Bash.
const (
	// BashDefaultTimeoutMs is the timeout when none is given (2 minutes).
	BashDefaultTimeoutMs = 120000
	// BashMaxTimeoutMs is the largest timeout accepted (10 minutes).
	BashMaxTimeoutMs = 600000
	// BashMaxOutputChars is the output length past which the middle is cut.
	BashMaxOutputChars = 30000
	// BashSpillBytes is how much output is kept when Env.SpillDir is set: up to it,
	// a long output is saved whole to a file the result names (tools.Spill).
	BashSpillBytes = 8 << 20
	// bashKeptBytes is what the process runner keeps. Far above
	// 4*BashMaxOutputChars, so whatever the runner drops lies inside the middle
	// that Bash cuts anyway.
	bashKeptBytes = 1 << 20
)

// BashInput is the input of the Bash tool, as Claude Code's Bash.
type BashInput struct {
	Command string `json:"command"`
	// Timeout is in milliseconds; 0 means BashDefaultTimeoutMs.
	Timeout     int    `json:"timeout,omitempty"`
	Description string `json:"description,omitempty"`
	// RunInBackground starts the command as a background shell of the
	// session and returns at once with its bash_id (bash_background.go).
	RunInBackground bool `json:"run_in_background,omitempty"`
}

const bashSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command to run with bash -c in the workspace root."},
    "timeout": {"type": "integer", "minimum": 1, "maximum": 600000, "description": "Timeout in milliseconds (default 120000, at most 600000)."},
    "description": {"type": "string", "description": "What the command does, in 5-10 words, e.g. \"List files in the current directory\"."},
    "run_in_background": {"type": "boolean", "description": "Set to true to run the command in the background: the call returns at once with a bash_id; read its output with BashOutput and end it with KillShell. There is no timeout then."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

// shellPath is bash when installed, else sh.
var shellPath = sync.OnceValue(func() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
})

// Bash is the command tool, as Claude Code's Bash: `bash -c COMMAND` (or `sh -c`)
// in the workspace root through sandbox.Run (own session and process group, no
// stdin, an allowlisted environment without pincer's secrets, no pager or
// editor, the group killed on timeout) — or, when Env.Sandbox is set, through a
// sandbox.Executor with that policy (rlimits, and Landlock, protected paths and
// the network namespace when the policy enables them). The output is stdout and
// stderr combined, made safe for the transcript (SafeOutput: ANSI sequences
// removed, control bytes escaped, invalid UTF-8 replaced, a note when more than
// ANSI changed), cut in the middle past BashMaxOutputChars (or spilled whole,
// as made safe, to a file); a non-zero exit
// appends "Exit code N" and marks the result IsError; a timeout appends "Command
// timed out after N ms". The first command of the process that runs with less
// confinement than its policy asked for ends with a "[sandbox degraded: ...]"
// line; a policy that cannot be met at all (RequireLandlock) fails the call.
type Bash struct {
	// KillGrace is passed to sandbox.Command; zero means sandbox.DefaultKillGrace.
	KillGrace time.Duration
}

// Spec describes Bash: KindExecute, not concurrency-safe (commands run one at
// a time).
func (Bash) Spec() Spec {
	return Spec{Name: "Bash", Description: bashDescription, Schema: json.RawMessage(bashSchema), Kind: KindExecute}
}

// Summary returns "Bash: COMMAND", the command's first line cut to 80
// characters; for run_in_background "Bash (in the background, no timeout):
// COMMAND", so that the approval request (permission.requested's summary)
// says the command will go on running after the call, unbounded.
func (Bash) Summary(in BashInput) string {
	if in.RunInBackground {
		return "Bash (in the background, no timeout): " + oneLine(in.Command, 80)
	}
	return "Bash: " + oneLine(in.Command, 80)
}

// Run runs the command and waits for it (or for its timeout, or for ctx).
// It has no Paths: which files a command touches is not known in advance.
func (b Bash) Run(ctx context.Context, env *Env, in BashInput) (Result, error) {
	if err := checkEnv(env); err != nil {
		return Result{}, err
	}
	if strings.TrimSpace(in.Command) == "" {
		return Result{}, errors.New("command is required")
	}
	if in.RunInBackground {
		return b.runInBackground(ctx, env, in)
	}
	timeoutMs := in.Timeout
	if timeoutMs == 0 {
		timeoutMs = BashDefaultTimeoutMs
	}
	if timeoutMs < 0 || timeoutMs > BashMaxTimeoutMs {
		return Result{}, fmt.Errorf("timeout must be between 1 and %d ms, got %d", BashMaxTimeoutMs, timeoutMs)
	}
	cmd := sandbox.Command{
		Path:      shellPath(),
		Args:      []string{"-c", in.Command},
		Dir:       env.Workspace.Root(),
		Timeout:   time.Duration(timeoutMs) * time.Millisecond,
		KillGrace: b.KillGrace,
		MaxOutput: bashKeptBytes,
	}
	if env.SpillDir != "" {
		cmd.MaxOutput = BashSpillBytes // the full output goes to a file the model can read
	}
	ctx, env, done := holdForeground(ctx, env)
	defer done()
	pol, err := bashPolicy(env)
	if err != nil {
		return Result{}, err
	}
	var res sandbox.Result
	if pol != nil {
		// The helper is pincer itself (sandbox.DefaultHelper); a test binary
		// answers for it through sandbox.RunHelperIfRequested in TestMain.
		// Warm: the next Bash call under the same policy finds its helper
		// started and confined (sandbox/warm_linux.go).
		ex := &sandbox.Executor{Policy: *pol, Workspace: env.Workspace, Warm: true}
		res, err = ex.Run(ctx, cmd)
	} else {
		res, err = sandbox.Run(ctx, cmd)
	}
	if err != nil && endedByTaint(ctx) { // ended by a taint before it could start
		return Result{Output: TaintEndedNote, IsError: true}, nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("starting the shell: %w", err)
	}
	safe, safeNote := SafeOutput(res.Output)
	out := strings.TrimRight(safe, "\n")
	whole := out
	if env.SpillDir != "" && res.OmittedBytes == 0 {
		if shown, _, err := Spill(env.SpillDir, env.ToolCallID, out, BashMaxOutputChars); err == nil {
			out = shown
		} else {
			out = cutMiddle(out, BashMaxOutputChars, 0)
		}
	} else {
		out = cutMiddle(out, BashMaxOutputChars, res.OmittedBytes)
	}

	var status string
	switch {
	case res.TimedOut:
		status = fmt.Sprintf("Command timed out after %d ms", timeoutMs)
	case res.Canceled && endedByTaint(ctx):
		status = TaintEndedNote
	case res.Canceled:
		status = "Command was interrupted"
	case res.ExitCode != 0:
		status = fmt.Sprintf("Exit code %d", res.ExitCode)
	}
	text := out
	switch {
	case status != "" && out != "":
		text = out + "\n" + status
	case status != "":
		text = status
	case out == "":
		text = "(no output)"
	}
	if safeNote != "" {
		text += "\n" + safeNote
	}
	if res.Notice != "" {
		text += "\n[" + res.Notice + "]"
	}
	r := Result{Output: withConfinedNote(env, text, false), IsError: status != ""}
	if out != whole && res.OmittedBytes == 0 { // cut here, from the whole output (the runner dropped nothing)
		r.OutputLines = strings.Count(whole, "\n") + 1
	}
	return r, nil
}

// cutMiddle keeps the first and last max/2 characters of s when s is longer than
// max characters (or when dropped > 0: characters already removed from its
// middle), with a marker saying how many characters were cut.
func cutMiddle(s string, max int, dropped int64) string {
	n := utf8.RuneCountInString(s)
	if n <= max && dropped == 0 {
		return s
	}
	half := max / 2
	if n <= max {
		half = n / 2
	}
	r := []rune(s)
	cut := int64(n-2*half) + dropped
	return string(r[:half]) + fmt.Sprintf("\n\n... [%d characters truncated] ...\n\n", cut) + string(r[n-half:])
}
