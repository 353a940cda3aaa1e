package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

//go:embed bashoutput.md
var bashOutputDescription string

// BashOutputInput is the input of BashOutput, as Claude Code's BashOutput.
type BashOutputInput struct {
	// BashID is the ID Bash returned ("bash_id: ID").
	BashID string `json:"bash_id"`
	// Filter is a regular expression (RE2) selecting the lines returned;
	// "" returns them all.
	Filter string `json:"filter,omitempty"`
}

const bashOutputSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "bash_id": {"type": "string", "minLength": 1, "description": "The ID of the background shell, as Bash returned it (bash_id: ...)."},
    "filter": {"type": "string", "description": "Optional regular expression (RE2 syntax): only the output lines it matches are returned; the others are consumed and will not be returned later."}
  },
  "required": ["bash_id"],
  "additionalProperties": false
}`

// BashOutput reads a background shell of the session, as Claude Code's
// BashOutput: the output written since the previous read (the lines matching
// Filter, when given), with the shell's status. Its Kind is KindRead: it
// reads what a shell of the session printed, and runs nothing. It is
// concurrency-safe (reads of one shell take turns; each sees new output).
type BashOutput struct{}

// Spec describes BashOutput: KindRead, concurrency-safe, Repeatable (a
// server's log grows between two reads with nothing else called).
func (BashOutput) Spec() Spec {
	return Spec{Name: "BashOutput", Description: bashOutputDescription, Schema: json.RawMessage(bashOutputSchema), Kind: KindRead, ConcurrencySafe: true, Repeatable: true}
}

// Summary returns "BashOutput bash_ID" (with "filter /RE/" when given).
func (BashOutput) Summary(in BashOutputInput) string {
	s := "BashOutput " + in.BashID
	if in.Filter != "" {
		s += " filter /" + oneLine(in.Filter, 40) + "/"
	}
	return s
}

// Run returns the shell's status and its new output: "<status>S</status>"
// (running, completed, failed, killed), "<exit_code>N</exit_code>" once it
// has ended, then "<output>...</output>" (or "(no new output)"): the new
// output made safe as Bash's (SafeOutput, with its note), its middle cut past
// BashMaxOutputChars. A shell an earlier run of the session ran gets its
// last status and EarlierShellNote. It fails for an ID the
// session has no shell of and for a filter that does not compile.
func (BashOutput) Run(ctx context.Context, env *Env, in BashOutputInput) (Result, error) {
	if env == nil || env.Shells == nil {
		return Result{}, errors.New("background shells are not available here")
	}
	var re *regexp.Regexp
	if in.Filter != "" {
		var err error
		if re, err = regexp.Compile(in.Filter); err != nil {
			return Result{}, fmt.Errorf("filter is not a valid regular expression: %w", err)
		}
	}
	r, err := env.Shells.Read(in.BashID, re)
	if info, ok := AsEarlierShell(err); ok {
		// An earlier run's shell: its state as that run left it, and the truth about it.
		return Result{Output: fmt.Sprintf("<status>%s</status>\n<exit_code>%d</exit_code>\n(no new output)\n[%s]",
			shellStatus(info), info.ExitCode, EarlierShellNote(info))}, nil
	}
	if err != nil {
		return Result{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<status>%s</status>\n", shellStatus(r.Info))
	if !r.Info.Running {
		fmt.Fprintf(&b, "<exit_code>%d</exit_code>\n", r.Info.ExitCode)
	}
	if r.Dropped > 0 {
		fmt.Fprintf(&b, "[%d bytes of output were written faster than they were read and are lost]\n", r.Dropped)
	}
	safe, safeNote := SafeOutput(r.Output)
	out := strings.TrimRight(safe, "\n")
	if out == "" {
		b.WriteString("(no new output)")
	} else {
		b.WriteString("<output>\n" + cutMiddle(out, BashMaxOutputChars, 0) + "\n</output>")
	}
	if safeNote != "" {
		b.WriteString("\n" + safeNote)
	}
	if r.Filtered > 0 {
		fmt.Fprintf(&b, "\n[%d lines did not match the filter]", r.Filtered)
	}
	if r.Notice != "" {
		b.WriteString("\n[" + r.Notice + "]")
	}
	if r.Info.Reason == ShellTainted {
		b.WriteString("\n[" + TaintEndedNote + "]")
	}
	return Result{Output: b.String()}, nil
}

// shellStatus is the status word of a shell: running, completed (exit 0),
// failed (another status), killed (KillShell, the session's end, a taint,
// the end of the process that ran it).
func shellStatus(i ShellInfo) string {
	switch {
	case i.Running:
		return "running"
	case i.Reason == ShellKilled || i.Reason == ShellSessionEnded || i.Reason == ShellTainted || i.Reason == ShellProcessEnded:
		return "killed"
	case i.ExitCode == 0:
		return "completed"
	default:
		return "failed"
	}
}
