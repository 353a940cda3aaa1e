package tui

import (
	"context"
	"errors"
	"time"

	"pincer/core/agent"
	"pincer/core/event"
	"pincer/core/permission"
)

// Attached: the shown session's turn runs in another pincer process (it holds
// the session's lease). The workbench follows its log live as always; it never
// takes that turn for one a dead process left open (Model.Interrupt is only for
// a session nobody holds); the status line says which process runs it; an
// answer to one of its approvals goes through the store (Backend.AnswerRemote),
// for that process to act on; and a prompt typed meanwhile waits, labelled in
// the input box's title, until the turn ends and the lease is free, then runs
// here.

// runnerPoll is how often a queued prompt checks whether the other process
// let go of the session's lease after its turn ended, and runnerWait how long
// it keeps checking (past the lease's TTL: a lease nobody renews expires).
const (
	runnerPoll = 50 * time.Millisecond
	runnerWait = agent.DefaultLeaseTTL + 5*time.Second
)

// othersTurn reports whether a turn of the tab's session runs and it is not
// this workbench's (w.othersTurn: the shown tab's).
func (t *sessionTab) othersTurn() bool {
	return !t.running && (t.runner != "" || t.model.Status.Turn == TurnRunning)
}

// attachedState is what the status line adds to a running turn of another
// process: "by pid 4242 (pincer on box)"; "" for this workbench's own.
func (t *sessionTab) attachedState() string {
	if t.running || t.runner == "" {
		return ""
	}
	return "by " + t.runner
}

// queuedTitle is the input box's title while another process's turn runs:
// that a prompt waits for it, or would; "" otherwise.
func (t *sessionTab) queuedTitle() string {
	who := t.runner
	if who == "" {
		who = "another process"
	}
	switch {
	case t.queued != "" && t.running:
		return " Input · queued " + queuedLabel(t.queued) + ": sent when this turn ends (Esc takes it back) "
	case t.queued != "":
		return " Input · queued " + queuedLabel(t.queued) + ": waits for the turn of " + who + " to end (Esc takes it back) "
	case t.othersTurn() && !t.readOnly:
		return " Input · " + who + " runs a turn here: a prompt waits for it to end "
	}
	return ""
}

// unqueue puts the shown tab's queued prompt back in the input box (Esc),
// reporting whether there was one. Event loop only.
func (w *Workbench) unqueue() bool { return w.unqueueTab(w.sessionTab) }

// unqueueTab is unqueue of tab t's prompt: the input box gets it at once
// while t is shown (before what was typed since), else when t is next shown
// with the box empty.
func (w *Workbench) unqueueTab(t *sessionTab) bool {
	if t.queued == "" {
		return false
	}
	switch {
	case t == w.sessionTab && w.input.GetText() == "":
		w.input.SetText(t.queued, true)
	case t == w.sessionTab: // typed meanwhile: the queued text goes first, nothing is lost
		w.input.SetText(t.queued+"\n"+w.input.GetText(), true)
	default:
		t.restore = t.queued
	}
	t.queued = ""
	w.Notify("info", "the queued prompt is back in the input box")
	return true
}

// queuePrompt keeps text to send once the running turn ends — this
// workbench's (startTurnIn sends it) or another process's (watchTurn). One
// prompt waits at a time: a second stays in the box. Event loop only.
func (w *Workbench) queuePrompt(text string) {
	if w.queued != "" {
		w.Notify("warning", "a prompt is already queued for when the turn ends: Esc takes it back into the input box")
		return
	}
	w.queued = text
	w.input.SetText("", false)
	w.Notify("info", w.queuedNotice())
}

// watchTurn follows the turn state of tab t's session as its live events
// arrive (after the replay): a turn another process starts gets its runner
// looked up; when one ends, the runner is cleared and a queued prompt runs
// once the lease is free. Event loop only (applyEvent).
func (w *Workbench) watchTurn(t *sessionTab, ev event.Event) {
	if t.replayEnd != 0 || t.running {
		return
	}
	switch ev.Type {
	case event.TurnStarted:
		if be, id := w.be, t.sessionID; be != nil {
			w.goBackground(func() { w.lookUpRunner(t, be, id) })
		}
	case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
		t.runner = ""
		if t.queued != "" && !t.readOnly {
			be, id := w.be, t.liveID
			w.goBackground(func() { w.sendQueuedWhenFree(t, be, id) })
		}
	}
}

// lookUpRunner asks who runs a session and shows it, if the session is still
// the one tab t shows and its turn still runs.
func (w *Workbench) lookUpRunner(t *sessionTab, be Backend, sessionID string) {
	runner, err := be.Runner(w.ctx, sessionID)
	if err != nil {
		return
	}
	w.pump.post(func() {
		if t.sessionID == sessionID && t.model.Status.Turn == TurnRunning && !t.running {
			t.runner = runner
		}
	})
}

// sendQueuedWhenFree waits (off the event loop) until no other process holds
// the session, then sends tab t's queued prompt there.
func (w *Workbench) sendQueuedWhenFree(t *sessionTab, be Backend, sessionID string) {
	deadline := time.Now().Add(runnerWait)
	for {
		runner, err := be.Runner(w.ctx, sessionID)
		if err == nil && runner == "" {
			break
		}
		if w.ctx.Err() != nil {
			return
		}
		if time.Now().After(deadline) {
			w.pump.post(func() {
				if w.unqueueTab(t) {
					w.Notify("warning", "the session is still held by "+runner+": the queued prompt is back in the input box")
				}
			})
			return
		}
		select {
		case <-w.ctx.Done():
			return
		case <-time.After(runnerPoll):
		}
	}
	w.pump.post(func() {
		if t.queued == "" || t.liveID != sessionID || t.othersTurn() || w.tabByKey(t.key) == nil {
			return // sent, dropped, another session, another turn began first, or the tab closed
		}
		if t.readOnly || w.rewindWaits(sessionID) { // no prompt while a rewind waits for its approval (README)
			w.unqueueTab(t)
			return
		}
		text := t.queued
		t.queued = ""
		w.startTurnIn(t, be, sessionID, text)
	})
}

// answerRemote sends a person's answer to a request of another process's
// turn through the store, off the event loop.
func (w *Workbench) answerRemote(be Backend, sessionID, requestID string, behavior permission.Behavior, scope permission.Scope, reason string) {
	w.goBackground(func() {
		ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
		defer cancel()
		if err := be.AnswerRemote(ctx, sessionID, requestID, behavior, scope, reason); err != nil {
			w.Notify("error", "answer not sent: "+err.Error())
		}
	})
}

// leaseHeld reports whether a turn could not start because another process
// holds the session.
func leaseHeld(err error) bool { return errors.Is(err, agent.ErrLeaseHeld) }
