package tui

import (
	"context"
	"errors"
	"strings"

	"pincer/core/app"
	"pincer/core/memory"
)

// Answering a candidate from the queue (reduce_candidates.go): the keys of a
// tool request where they fit — y accepts, n rejects, N rejects with a
// reason, e edits the text first (candidate_editor.go) — through the same
// checks (approvalKey: on screen for approvalGrace, a letter held for
// commitDelay, no burst). s and a have no meaning for a candidate (it is
// written once, never a rule) and say so. The decision goes to the
// Backend's DecideCandidate off the event loop; the queue changes only when
// the session's candidate.decided comes back through the log.

// memoryBackend is the part of a Backend that reviews memory and skill
// candidates (app.Backend has it; without it nothing can be decided).
type memoryBackend interface {
	DecideCandidate(ctx context.Context, sessionID, id string, d memory.Decision) (memory.Candidate, error)
	CandidateDiff(ctx context.Context, id string) (string, error)
	ProposeMemory(ctx context.Context, sessionID, text string) (memory.Candidate, error)
	ProposeForget(ctx context.Context, sessionID, scope, name string) (memory.Candidate, error)
	Memories(ctx context.Context) ([]memory.Entry, error)
	Candidates(ctx context.Context, f memory.Filter) ([]memory.Candidate, error)
}

// memoryOf returns the attached backend's memory part, saying why there is
// none.
func (w *Workbench) memoryOf() (memoryBackend, bool) {
	mb, ok := w.be.(memoryBackend)
	if !ok || w.be == nil {
		w.Notify("warning", "the store is still opening: try again in a moment")
		return nil, false
	}
	return mb, true
}

// candidateAnswers are a candidate's answers by the queue's actions, with
// the key bar's label and the notices' verb.
var candidateAnswers = map[Action]struct {
	short, long, done string
	do                memory.Action
}{
	ActAllowOnce:  {"accept", "accept", "accepted: ", memory.Accept},
	ActDeny:       {"reject", "reject", "rejected: ", memory.Reject},
	ActDenyReason: {"reject with reason", "reject with a reason", "rejected: ", memory.Reject},
	ActEditCand:   {"edit", "edit, then accept", "", ""},
}

// candidateActions is the order the key bar names a candidate's answers in.
var candidateActions = []Action{ActAllowOnce, ActEditCand, ActDeny, ActDenyReason}

// answerCandidate gives the answer act (with a rejection's reason) to the
// pending candidate e.
func (w *Workbench) answerCandidate(e pendingEntry, act Action, reason string) {
	ans, ok := candidateAnswers[act]
	switch {
	case !ok:
		w.hint("a " + e.a.Name + " candidate is written once, never a rule: y accepts it, n rejects it, e edits it first")
		return
	case act == ActEditCand:
		w.openCandidateEditor(e)
		return
	}
	w.decideCandidate(e, memory.Decision{Action: ans.do, Reason: reason}, ans.done)
}

// decideCandidate sends decision d on candidate e to the backend, off the
// event loop; done starts the notice ("accepted: ", ...). A refusal (decided
// elsewhere first, an invalid edit, a failed write) is a notice.
func (w *Workbench) decideCandidate(e pendingEntry, d memory.Decision, done string) {
	mb, ok := w.memoryOf()
	if !ok {
		return
	}
	sessionID, id, what := e.tab.liveID, e.a.Candidate.ID, e.a.Summary
	w.goBackground(func() {
		_, err := mb.DecideCandidate(w.ctx, sessionID, id, d)
		switch {
		case errors.Is(err, app.ErrCandidateDecided):
			w.Notify("warning", "already decided elsewhere: "+what)
		case err != nil:
			w.Notify("error", what+": "+err.Error())
		default:
			w.Notify("info", done+what)
		}
	})
}

// candidateAhead reports whether the request an answer key would answer now
// is a candidate: the selected pending row (the shown tab's, from the input
// box), else the first pending one (approvalKey's selectPending and
// selectOwnPending).
func (w *Workbench) candidateAhead(fromInput bool) bool {
	if w.approvals == nil { // no panes yet
		return false
	}
	if row, ok := w.approvals.selected(); ok {
		if e, ok := w.pendingOf(row.Key); ok && (!fromInput || e.tab == w.sessionTab) {
			return e.a.Candidate != nil
		}
	}
	p := w.allPending()
	return len(p) > 0 && (!fromInput || p[0].tab == w.sessionTab) && p[0].a.Candidate != nil
}

// answerItems are the answer keys' key bar items for what the keys would
// answer now: a candidate's (accept, edit, reject) or a tool request's
// (approvalActions), as the key map binds them.
func (w *Workbench) answerItems() (keys, labels []string) {
	if w.candidateAhead(w.focus == paneInput) {
		for _, act := range candidateActions {
			if k := w.keys.KeysOf(act); k != "" {
				k, _, _ = strings.Cut(k, "/")
				keys, labels = append(keys, k), append(labels, candidateAnswers[act].short)
			}
		}
		return keys, labels
	}
	for _, a := range approvalActions {
		if k := w.keys.KeysOf(a.act); k != "" {
			k, _, _ = strings.Cut(k, "/")
			keys, labels = append(keys, k), append(labels, a.short)
		}
	}
	return keys, labels
}
