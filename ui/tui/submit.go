package tui

import (
	"context"
	"strings"

	"github.com/gdamore/tcell/v2"

	"pincer/core/agent"
	"pincer/core/permission"
)

// submit sends the input box as a turn (or runs a slash command). A turn runs
// in the background, cancellable with Esc; a prompt sent while one runs is
// queued (queuePrompt) and sent when it completes — given back to the input
// box when it is cancelled or fails, or with Esc. Event loop only.
func (w *Workbench) submit(text string) {
	text = w.expandPastes(text) // the placeholders of large pastes stand for their text
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return
	}
	w.rememberPrompt(text)
	if kind := classifyInput(trimmed, w.knownCommand()); kind == inputCommand || kind == inputUnknownCommand {
		if w.runSlash(trimmed) {
			w.input.SetText("", false)
		} else {
			w.keepForCorrection()
		}
		return
	}
	be, sessionID := w.be, w.liveID
	if w.readOnly {
		open, _, _ := strings.Cut(w.keys.KeysOf(ActSessions), "/")
		resume, _, _ := strings.Cut(w.keys.KeysOf(ActResume), "/") // its first key: a letter would go to the filter
		w.Notify("warning", "this session is open read-only: Esc returns to yours ("+open+", then "+resume+", resumes this one)")
		return
	}
	if be == nil || sessionID == "" {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return
	}
	if w.running { // queued, as Claude Code and Crush do: sent when the turn ends
		w.queuePrompt(text)
		return
	}
	if w.rw.busy {
		w.Notify("warning", "a rewind is under way: answer its approval first (the prompt is kept)")
		return
	}
	if w.othersTurn() {
		w.queuePrompt(text)
		return
	}
	w.input.SetText("", false)
	w.startTurn(be, sessionID, text)
}

// startTurn runs text as a turn of sessionID in the background; the
// transcript goes back to its end and follows (a prompt sent, a retry, a
// queued prompt that starts: as Claude Code and Crush). A session
// another process took meanwhile queues the prompt for when its turn ends
// (attach.go). Event loop only.
//
// The turn belongs to the shown tab: its end is posted back to that tab,
// whichever is shown by then (a turn runs on while another tab is used).
func (w *Workbench) startTurn(be Backend, sessionID, text string) {
	w.startTurnIn(w.sessionTab, be, sessionID, text)
}

// startTurnIn is startTurn on tab t. Event loop only.
func (w *Workbench) startTurnIn(t *sessionTab, be Backend, sessionID, text string) {
	ctx, cancel := context.WithCancel(w.ctx)
	t.running, t.turnCancel = true, cancel
	t.view.Follow(true) // a prompt sent jumps to the end and follows its turn (follow.go)
	w.clearNoticeLine()
	w.goBackground(func() {
		res, err := be.Submit(ctx, sessionID, text)
		cancel()
		w.pump.post(func() {
			t.running, t.turnCancel = false, nil
			if !leaseHeld(err) && t.queued != "" { // a prompt sent while this turn ran
				if err == nil && res.Outcome == agent.OutcomeCompleted && !t.readOnly && t.liveID == sessionID && !w.rewindWaits(sessionID) {
					next := t.queued
					t.queued = ""
					w.startTurnIn(t, be, sessionID, next)
				} else {
					w.unqueueTab(t)
				}
			}
			switch {
			case leaseHeld(err) && t.queued == "":
				t.queued = text
				w.noticeFor(t, "info", t.queuedNotice())
			case err != nil:
				w.noticeFor(t, "error", err.Error())
				t.restore = text
			// The transcript has the turn's own block (turn.cancelled,
			// turn.failed): the notices line says it, not the transcript
			// a second time (new user r24 #10).
			case res.Outcome == agent.OutcomeCancelled:
				w.pushNotice("info", "turn cancelled")
			case res.Outcome == agent.OutcomeFailed && res.Err != nil:
				w.pushNotice("error", "turn failed: "+res.Err.Error()+" (F5 sends the prompt again)")
			}
		})
	})
}

// answerSelected answers the selected pending approval.
func (w *Workbench) answerSelected(act Action, reason string) {
	row, ok := w.approvals.selected()
	pending := ok && w.isPending(row.Key)
	switch {
	case !ok:
		w.Notify("info", "no pending approval")
	case !pending:
		w.Notify("info", "nothing waits for this answer: its turn ended (the request was interrupted or answered)")
	default:
		w.answer(row.Key, row.Text, act, reason)
	}
}

// isPending reports whether a request of a tab's live session waits for an
// answer (not one shown read-only, not an interrupted one).
func (w *Workbench) isPending(requestID string) bool {
	_, ok := w.pendingOf(requestID)
	return ok
}

// answer sends the person's answer to the backend. An answer nobody waits
// for any more (its turn just ended) changes nothing: the log shows how the
// request ended.
func (w *Workbench) answer(requestID, what string, act Action, reason string) {
	be, t := w.be, w.sessionTab
	if e, ok := w.pendingOf(requestID); ok {
		if e.a.Candidate != nil { // a memory or skill candidate (candidate_answer.go)
			w.answerCandidate(e, act, reason)
			return
		}
		t = e.tab // the tab whose turn asked (approvals_tabs.go)
	}
	if be != nil {
		behavior, scope, reason := answerFor(act, reason)
		if a, ok := w.pendingApproval(requestID); ok && a.SessionID != "" {
			w.answerChild(be, a, behavior, scope, reason) // a subagent's (approval_child.go)
		} else if t.running || w.rewindWaits(t.liveID) { // a rewind's request waits here too (rewind_keys.go)
			_ = be.Resolve(requestID, behavior, scope, reason)
		} else { // pending, yet no turn of ours runs: another process's (attach.go)
			w.answerRemote(be, t.liveID, requestID, behavior, scope, reason)
		}
	}
	msg := map[Action]string{ActAllowOnce: "allowed once: ", ActAllowSession: "allowed for this session: ",
		ActAllowAlways: "always allowed: ", ActDeny: "denied: "}[act]
	w.Notify("info", msg+what)
}

// startReason opens the one-line field for a denial's reason, in place of the
// input box.
func (w *Workbench) startReason() {
	row, ok := w.approvals.selected()
	ok = ok && w.isPending(row.Key)
	if ok {
		w.reasonFor, w.reasonWhat = row.Key, row.Text
	}
	if !ok {
		w.Notify("info", "no pending approval selected")
		return
	}
	w.reason.SetText("")
	w.focus = paneInput
	w.focusWidget(w.reason)
}

// reasonKey handles a key while the reason field is open: Enter denies with
// the reason, Esc (or Ctrl+C) gives up; other keys edit the field.
func (w *Workbench) reasonKey(ev *tcell.EventKey) *tcell.EventKey {
	switch ev.Key() {
	case tcell.KeyEnter:
		w.answer(w.reasonFor, w.reasonWhat, ActDeny, strings.TrimSpace(w.reason.GetText()))
	case tcell.KeyEscape, tcell.KeyCtrlC:
	default:
		return ev
	}
	w.reasonFor, w.reasonWhat = "", ""
	w.setFocus(paneApprovals)
	return nil
}

// answerFor is the answer of an approvals-pane action: allow with its scope,
// or deny (scope once) with the person's reason, "denied by user" without one.
func answerFor(act Action, reason string) (permission.Behavior, permission.Scope, string) {
	switch act {
	case ActAllowOnce:
		return permission.Allow, permission.ScopeOnce, "allowed by the user"
	case ActAllowSession:
		return permission.Allow, permission.ScopeSession, "allowed by the user"
	case ActAllowAlways:
		return permission.Allow, permission.ScopeAlways, "allowed by the user"
	}
	if reason == "" {
		reason = "denied by user"
	}
	return permission.Deny, permission.ScopeOnce, reason
}
