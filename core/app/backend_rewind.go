package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"pincer/core/checkpoint"
	"pincer/core/event"
	"pincer/core/permission"
	"pincer/persist"
)

// RewindTool is the Name of the approval requests (and of the tool.completed
// rows) a workbench rewind puts in the session's log: what the approvals
// pane and the timeline show for it.
const RewindTool = "Rewind"

// RewindChoice is what the workbench's /rewind asks for: to before Turn
// (from 1, as `pincer rewind --turn` counts), the code (the workspace
// files), the conversation (a branch session), or both.
type RewindChoice struct {
	Turn               int
	Code, Conversation bool
}

// RewindOutcome is what a workbench rewind did: the files it restored
// (workspace-relative, sorted), the files changed outside pincer since the
// checkpoint that the person kept ("path: how", not overwritten), the branch
// session a conversation rewind started, and Declined when the person denied
// the code restore (then nothing at all was changed).
type RewindOutcome struct {
	Restored []string
	Kept     []string
	Branch   string
	Declined bool
}

// RewindTurns are the turns of session sessionID as /rewind lists them
// (SessionTurns: number, time, first line of the prompt, files changed).
func (b *Backend) RewindTurns(ctx context.Context, sessionID string) ([]TurnSummary, error) {
	return SessionTurns(ctx, b.Store, sessionID)
}

// RewindSession rewinds session sessionID as Claude Code's /rewind, through
// the approval queue: a code rewind shows the diff it would apply to the
// workspace as it is now as a permission request (Name RewindTool, answered
// as a tool call's) and changes nothing unless allowed; the files changed
// outside pincer since the checkpoint are named in it and kept, then put to
// the person in a second request of their own (their diff shows the change
// that would be lost) and overwritten only if that one is allowed too. What
// changed while a question was up is planned again: a file that became a
// conflict waits for the second request, one that changed again after the
// second was shown is kept. A conversation rewind starts a branch session
// holding the turns before Turn (the transcript is never rewritten). The
// rewind is a session.rewound event of the session and of the branch. It
// blocks until the person answers; cancelling ctx denies what is pending.
// Errors: a running session, a turn it lacks (rewindTarget), no queue, the
// store's.
func (b *Backend) RewindSession(ctx context.Context, sessionID string, c RewindChoice) (RewindOutcome, error) {
	var out RewindOutcome
	t, err := rewindTarget(ctx, b.Store, sessionID, c.Turn, c.Code, c.Conversation)
	if err != nil {
		return out, err
	}
	forced := false
	if c.Code {
		if out, forced, err = b.rewindCode(ctx, t); err != nil || out.Declined {
			return out, err
		}
	}
	if c.Conversation && c.Turn > 1 {
		br, err := branchSession(ctx, b.Store, b.Log(), t.sess, t.msgs, t.turns[c.Turn-1], c.Turn)
		if err != nil {
			return out, err
		}
		out.Branch = br.ID
	}
	data := event.SessionRewoundData{Turn: c.Turn, Code: c.Code, Conversation: c.Conversation,
		Files: out.Restored, Kept: out.Kept, Branch: out.Branch, Forced: forced}
	return out, emitRewound(ctx, b.Log(), t.sess.ID, data)
}

// rewindCode is RewindSession's code part: the first request, the clean
// restores, the second request for the conflicts. forced says conflicts were
// overwritten.
func (b *Backend) rewindCode(ctx context.Context, t rewindPlan) (out RewindOutcome, forced bool, err error) {
	id := t.sess.ID
	var live *checkpoint.Recorder
	if a := b.agentFor(id); a != nil {
		live = a.Checkpoints()
	}
	rec, err := rewindRecorder(b.Store, t.sess, live)
	if err != nil {
		return out, false, err
	}
	if rec != live {
		defer rec.Close()
	}
	plan, err := t.plan(ctx, b.Store, rec)
	if plan = pending(plan); err != nil || len(plan) == 0 {
		return out, false, err
	}
	conflicts := checkpoint.Conflicts(plan)
	summary := fmt.Sprintf(RewindTool+": restore %s to before turn %d", nFiles(len(plan)), t.turn)
	reason := fmt.Sprintf("Rewind the code to before turn %d: the diff is what it writes.", t.turn)
	if len(conflicts) > 0 {
		reason += fmt.Sprintf(" %s changed outside pincer since the checkpoint and kept unless you confirm the next request: %s.",
			nFiles(len(conflicts)), strings.Join(conflicts, ", "))
	}
	ok, callID, err := b.askRewind(ctx, rec, id, summary, reason, plan, "restored "+nFiles(len(plan)))
	if err != nil || !ok {
		return RewindOutcome{Declined: !ok}, false, err
	}
	// What changed while the question was up: planned again.
	if plan, err = t.plan(ctx, b.Store, rec); err != nil {
		return out, false, err
	}
	clean, risky := splitConflicts(pending(plan))
	if len(clean) > 0 {
		if err := restore(ctx, b.Log(), rec, id, callID, clean, false); err != nil {
			return out, false, err
		}
		out.Restored = restorePaths(clean)
	}
	if len(risky) == 0 {
		return out, false, nil
	}
	list := checkpoint.Conflicts(risky)
	summary = fmt.Sprintf(RewindTool+": OVERWRITE %s changed outside pincer since the checkpoint", nFiles(len(risky)))
	reason = fmt.Sprintf("⚠ Allowing this overwrites changes made outside pincer after the checkpoint (the diff shows what is lost): %s. Deny keeps them as they are.",
		strings.Join(list, ", "))
	ok, callID, err = b.askRewind(ctx, rec, id, summary, reason, risky, "overwrote "+nFiles(len(risky)))
	if err != nil {
		return out, false, err
	}
	if !ok {
		out.Kept = list
		return out, false, nil
	}
	again, err := t.plan(ctx, b.Store, rec)
	if err != nil {
		return out, false, err
	}
	shown := map[string]persist.FileVersion{}
	for _, rs := range risky {
		shown[rs.Path] = rs.Now
	}
	var force []checkpoint.Restore
	for _, rs := range again {
		now, asked := shown[rs.Path]
		switch {
		case !asked:
		case rs.Conflict != "" && !sameNow(now, rs.Now):
			out.Kept = append(out.Kept, rs.Path+": changed again while you were asked")
		default:
			force = append(force, rs)
		}
	}
	if len(force) > 0 {
		if err := restore(ctx, b.Log(), rec, id, callID, force, true); err != nil {
			return out, false, err
		}
		out.Restored = append(out.Restored, restorePaths(force)...)
	}
	return out, len(force) > 0, nil
}

// askRewind puts a rewind of plan to the person as a permission request of
// session id (the diff RestoreDiff renders), waits for the answer on the
// approval queue, records it (permission.resolved, the audit trail, and a
// tool.completed row saying done, what, or that it was denied) and reports
// whether it was allowed, and the request's ToolCallID (the row's). A session or always answer allows this request
// only: a rewind is never remembered.
func (b *Backend) askRewind(ctx context.Context, rec *checkpoint.Recorder, id, summary, reason string, plan []checkpoint.Restore, done string) (bool, string, error) {
	if b.Approvals == nil {
		return false, "", errors.New("rewind: this front end has no approval queue")
	}
	diff, err := rec.RestoreDiff(ctx, plan)
	if err != nil {
		return false, "", err
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	suffix := hex.EncodeToString(rnd[:])
	reqID, callID := "rewind-"+suffix, "rewind-call-"+suffix
	log := b.Log()
	if _, err := log.Emit(ctx, event.PermissionRequested, id, "", event.PermissionRequestedData{RequestID: reqID,
		ToolCallID: callID, Name: RewindTool, Summary: summary, Reason: reason, Diff: diff}); err != nil {
		return false, "", err // no approval without its record
	}
	in := permission.Input{Tool: RewindTool, Summary: summary}
	ans := b.Approvals.Approve(ctx, id, reqID, in, permission.Decision{Behavior: permission.Ask, Reason: reason, By: "rewind"})
	d := ans.Decision
	if d.Behavior != permission.Allow {
		d.Behavior = permission.Deny
	}
	bg := context.WithoutCancel(ctx)
	_, err = log.Emit(bg, event.PermissionResolved, id, "", event.PermissionResolvedData{RequestID: reqID, ToolCallID: callID,
		Decision: string(d.Behavior), Scope: string(permission.ScopeOnce), Reason: d.Reason, By: d.By})
	audit := permission.NewAuditEntry(id, "", callID, in, d, time.Now().UTC())
	audit.Scope = string(permission.ScopeOnce)
	err = errors.Join(err, b.Store.AppendAudit(bg, audit))
	row := event.ToolCompletedData{ToolCallID: callID, Name: RewindTool, Summary: summary, Output: done, Diff: diff}
	if d.Behavior != permission.Allow {
		row = event.ToolCompletedData{ToolCallID: callID, Name: RewindTool, Summary: summary, IsError: true,
			Output: "not done: " + denial(d), DeniedBy: d.By}
	}
	_, eerr := log.Emit(bg, event.ToolCompleted, id, "", row)
	return d.Behavior == permission.Allow, callID, errors.Join(err, eerr)
}

// denial says who denied a request and why.
func denial(d permission.Decision) string {
	if d.Reason != "" {
		return "denied (" + d.Reason + ")"
	}
	return "denied"
}

// pending are the restores of plan with something to do: a file already as
// the rewind would leave it (an earlier rewind restored it) is left out.
func pending(plan []checkpoint.Restore) []checkpoint.Restore {
	var out []checkpoint.Restore
	for _, rs := range plan {
		if rs.To.NotStored != "" || rs.Conflict != "" || !sameNow(rs.Now, rs.To) {
			out = append(out, rs)
		}
	}
	return out
}

// splitConflicts parts plan into its restores without a conflict and those
// changed outside pincer since the checkpoint.
func splitConflicts(plan []checkpoint.Restore) (clean, risky []checkpoint.Restore) {
	for _, rs := range plan {
		if rs.Conflict != "" {
			risky = append(risky, rs)
		} else {
			clean = append(clean, rs)
		}
	}
	return clean, risky
}

// sameNow reports whether two versions a plan saw in the workspace are the
// same file: absent both, or the same content and mode.
func sameNow(a, b persist.FileVersion) bool {
	return a.Absent == b.Absent && a.Hash == b.Hash && a.Mode == b.Mode && a.Size == b.Size
}

// nFiles is "1 file" or "N files".
func nFiles(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
