package tui

import (
	"context"
	"errors"
	"strings"
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

// othersTurn reports whether a turn of the shown session runs and it is not
// this workbench's.
func (w *Workbench) othersTurn() bool {
	return !w.running && (w.runner != "" || w.model.Status.Turn == TurnRunning)
}

// attachedState is what the status line adds to a running turn of another
// process: "by pid 4242 (pincer on box)"; "" for this workbench's own.
func (w *Workbench) attachedState() string {
	if w.running || w.runner == "" {
		return ""
	}
	return "by " + w.runner
}

// queuedTitle is the input box's title while another process's turn runs:
// that a prompt waits for it, or would; "" otherwise.
func (w *Workbench) queuedTitle() string {
	who := w.runner
	if who == "" {
		who = "another process"
	}
	switch {
	case w.queued != "":
		return " Input · queued: waits for the turn of " + who + " to end (Esc takes it back) "
	case w.othersTurn() && !w.readOnly:
		return " Input · " + who + " runs a turn here: a prompt waits for it to end "
	}
	return ""
}

// unqueue puts a queued prompt back in the input box (Esc), reporting
// whether there was one. Event loop only.
func (w *Workbench) unqueue() bool {
	if w.queued == "" {
		return false
	}
	if w.input.GetText() == "" {
		w.input.SetText(w.queued, true)
	}
	w.queued = ""
	w.Notify("info", "the queued prompt is back in the input box")
	return true
}

// queuePrompt keeps text to send once the other process's turn ends. One
// prompt waits at a time: a second stays in the box. Event loop only.
func (w *Workbench) queuePrompt(text string) {
	if w.queued != "" {
		w.Notify("warning", "a prompt is already queued for when the other process's turn ends")
		return
	}
	w.queued = text
	w.input.SetText("", false)
	w.Notify("info", strings.TrimSpace(w.queuedTitle()))
}

// watchTurn follows the turn state of the shown session as its live events
// arrive (after the replay): a turn another process starts gets its runner
// looked up; when one ends, the runner is cleared and a queued prompt runs
// once the lease is free. Event loop only (applyEvent).
func (w *Workbench) watchTurn(ev event.Event) {
	if w.replayEnd != 0 || w.running {
		return
	}
	switch ev.Type {
	case event.TurnStarted:
		if be, id := w.be, w.sessionID; be != nil {
			w.goBackground(func() { w.lookUpRunner(be, id) })
		}
	case event.TurnCompleted, event.TurnFailed, event.TurnCancelled:
		w.runner = ""
		if w.queued != "" && !w.readOnly {
			be, id := w.be, w.liveID
			w.goBackground(func() { w.sendQueuedWhenFree(be, id) })
		}
	}
}

// lookUpRunner asks who runs a session and shows it, if the session is still
// the one shown and its turn still runs.
func (w *Workbench) lookUpRunner(be Backend, sessionID string) {
	runner, err := be.Runner(w.ctx, sessionID)
	if err != nil {
		return
	}
	w.pump.post(func() {
		if w.sessionID == sessionID && w.model.Status.Turn == TurnRunning && !w.running {
			w.runner = runner
		}
	})
}

// sendQueuedWhenFree waits (off the event loop) until no other process holds
// the session, then sends the queued prompt there.
func (w *Workbench) sendQueuedWhenFree(be Backend, sessionID string) {
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
				if w.unqueue() {
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
		if w.queued == "" || w.liveID != sessionID || w.othersTurn() {
			return // sent, dropped, another session, or another turn began first
		}
		text := w.queued
		w.queued = ""
		w.startTurn(be, sessionID, text)
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
