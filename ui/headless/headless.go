// Package headless is the front end of `pincer run`: one turn, no terminal UI, output
// as text, one JSON object, or a JSON line per event (stream-json) — the output
// formats of Claude Code's `-p` mode. Like every front end it reads the session's event
// log; it never sees the agent's internals.
package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/message"
	"pincer/ui/termtext"
)

// Format is an output format of `pincer run`.
type Format string

// Output formats.
const (
	// FormatText prints the final assistant text on stdout.
	FormatText Format = "text"
	// FormatJSON prints one Result object when the turn ends.
	FormatJSON Format = "json"
	// FormatStreamJSON prints every event of DESIGN.md as one JSON line, in sequence
	// order, as it happens, then the Result object as the last line.
	FormatStreamJSON Format = "stream-json"
)

// ParseFormat validates s; empty is FormatText.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case "", FormatText:
		return FormatText, nil
	case FormatJSON, FormatStreamJSON:
		return Format(s), nil
	}
	return "", fmt.Errorf("unknown output format %q (want text, json or stream-json)", s)
}

// Result is the object FormatJSON prints. NumTurns counts model calls; CostUSD is
// null when unknown.
type Result struct {
	Type       string        `json:"type"` // always "result"
	SessionID  string        `json:"sessionId"`
	Result     string        `json:"result"`
	IsError    bool          `json:"isError"`
	StopReason string        `json:"stopReason"`
	NumTurns   int           `json:"numTurns"`
	DurationMs int64         `json:"durationMs"`
	Usage      message.Usage `json:"usage"`
	CostUSD    *float64      `json:"costUsd"`
	Error      string        `json:"error,omitempty"`
	// Candidates are the memory and skill candidates the turn proposed
	// (pending for a person's review: `pincer memory approve ID`).
	Candidates []Candidate `json:"candidates,omitempty"`
	// PermissionDenials are the tool calls the turn's permission decisions
	// (or hooks) refused, in order (claude -p's permission_denials). A turn
	// with denials still completed: isError false and exit 0, as claude -p.
	PermissionDenials []Denial `json:"permissionDenials,omitempty"`
	// EndedShells are the background shells still running when the run
	// ended, which it ended (each also a stderr line, and in stream-json a
	// shell.exited event with reason session_ended before this object).
	EndedShells []EndedShell `json:"endedShells,omitempty"`
}

// WriteFailure prints, for the json and stream-json formats, the result object of
// a run that never started a turn (a config file that does not parse, no model, no
// such session) or could not submit it: isError true, stopReason "not_started",
// error the reason; so a script reading stdout always gets one object. The text
// format prints nothing (the reason is on stderr).
func WriteFailure(w io.Writer, f Format, sessionID string, err error) {
	if f != FormatJSON && f != FormatStreamJSON {
		return
	}
	w = termtext.JSON(w)
	b, _ := json.Marshal(Result{Type: "result", SessionID: sessionID, IsError: true, StopReason: "not_started", Error: err.Error()})
	fmt.Fprintln(w, string(b))
}

// Options configure a headless run.
type Options struct {
	Format Format
	Stdout io.Writer
	Stderr io.Writer
	// After is the log cursor: stream-json prints the events with a greater sequence
	// (0 for a session created for this run, so session.created is printed too).
	After uint64
	// Turn, when set, is the turn's input with a /NAME invocation's extras
	// (app.Setup.Invocation); input is then only what is printed as asked.
	Turn *agent.TurnInput
}

// Run submits input to the session and prints the outcome in opts.Format. It returns
// the process exit code: 0 when the turn completed (also when tool calls were
// denied, as claude -p: each is one line on stderr, `pincer: denied SUMMARY (BY):
// WHY` with the flag or rule that would allow it, and listed in the result's
// permissionDenials), 1 when it failed, was cancelled, or could not start (the
// reason is one line on stderr). The session's background shells still running
// then end with the run: each is one line on stderr, `pincer: background shell
// ID (COMMAND) was still running when the run ended: ended it`, and listed in
// the result's endedShells.
func Run(ctx context.Context, ag *agent.Agent, sessionID, input string, opts Options) int {
	start := time.Now()
	// Text and notices are for a person; JSON keeps every character, escaped.
	opts.Stderr = termtext.NewWriter(opts.Stderr)
	if opts.Format == FormatText {
		opts.Stdout = termtext.NewWriter(opts.Stdout)
	} else {
		opts.Stdout = termtext.JSON(opts.Stdout)
	}
	followCtx, stopFollow := context.WithCancel(context.WithoutCancel(ctx))
	defer stopFollow()
	followDone := make(chan error, 1)
	enc := json.NewEncoder(opts.Stdout)
	var printed atomic.Uint64 // the last sequence handled
	var proposed candidates   // handle runs on the follower, then (once it ended) here
	var denied denials        // the same
	var ended endedShells     // the same
	handle := func(ev event.Event) error {
		proposed.see(ev)
		// Every format says a refused call on stderr, one line each.
		denied.see(ev, opts.Stderr)
		// and a background shell the run's end ended.
		ended.see(ev, opts.Stderr)
		// stream-json prints every event; the other formats show notices on stderr.
		if opts.Format == FormatStreamJSON {
			if err := enc.Encode(ev); err != nil {
				return err
			}
		} else if ev.Type == event.Notice {
			p, err := ev.Payload()
			if n, ok := p.(event.NoticeData); ok {
				fmt.Fprintf(opts.Stderr, "pincer: %s %s: %s\n", n.Source, n.Level, n.Message)
			} else {
				fmt.Fprintf(opts.Stderr, "pincer: a notice could not be read: %v\n", err)
			}
		}
		printed.Store(ev.Sequence)
		return nil
	}
	go func() { followDone <- ag.Log().Follow(followCtx, sessionID, opts.After, handle) }()

	var res agent.TurnResult
	var err error
	if opts.Turn != nil {
		res, err = ag.SubmitTurnInput(ctx, sessionID, *opts.Turn)
	} else {
		res, err = ag.SubmitTurn(ctx, sessionID, input)
	}
	if err == nil {
		res, err = afterBackground(ctx, ag, sessionID, res)
	}
	// The run ends here: its background shells still running end now, so
	// their ends are handled (said, listed, streamed) with the turn's events.
	ag.EndSessionShells(sessionID)
	// The follower stops here; what it had not handled yet is read once more.
	stopFollow()
	ferr := <-followDone
	if ferr == nil || errors.Is(ferr, context.Canceled) {
		evs, rerr := ag.Log().Read(context.WithoutCancel(ctx), sessionID, max(printed.Load(), opts.After), 0)
		for _, ev := range evs {
			if ferr = handle(ev); ferr != nil {
				break
			}
		}
		if ferr == nil {
			ferr = rerr
		}
	}
	if ferr != nil && !errors.Is(ferr, context.Canceled) {
		fmt.Fprintf(opts.Stderr, "pincer: writing events: %v\n", ferr)
	}
	if err != nil {
		fmt.Fprintf(opts.Stderr, "pincer: %v\n", err)
		WriteFailure(opts.Stdout, opts.Format, sessionID, err)
		return 1
	}

	failed := res.Outcome != agent.OutcomeCompleted
	out := Result{Type: "result", SessionID: res.SessionID, Result: res.FinalText, IsError: failed,
		StopReason: res.StopReason, NumTurns: res.Iterations, DurationMs: time.Since(start).Milliseconds(),
		Usage: res.Usage, CostUSD: res.Usage.CostUSD, Candidates: proposed.list, PermissionDenials: denied.list,
		EndedShells: ended.list}
	switch {
	case res.Outcome == agent.OutcomeCancelled:
		out.Error = "cancelled by user"
		var sc *agent.StopCause
		if errors.As(res.Err, &sc) {
			out.Error = "cancelled: " + sc.Reason
		}
	case res.Err != nil:
		out.Error = res.Err.Error()
	}
	switch opts.Format {
	case FormatJSON, FormatStreamJSON:
		// stream-json ends with the same result object, as claude -p does.
		b, _ := json.Marshal(out)
		fmt.Fprintln(opts.Stdout, string(b))
	case FormatText:
		if res.FinalText != "" {
			fmt.Fprintln(opts.Stdout, res.FinalText)
		}
	}
	switch res.Outcome {
	case agent.OutcomeCancelled:
		fmt.Fprintf(opts.Stderr, "pincer: turn cancelled (session %s; continue it with --continue)\n", res.SessionID)
		return 1
	case agent.OutcomeFailed:
		fmt.Fprintf(opts.Stderr, "pincer: turn failed: %v (session %s)\n", res.Err, res.SessionID)
		return 1
	}
	return 0
}
