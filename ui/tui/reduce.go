package tui

import (
	"errors"
	"fmt"
	"time"

	"pincer/core/event"
	"pincer/ui/tui/transcript"
)

// Block IDs derived from events. Assistant text uses the message ID itself.
func userBlockID(ev event.Event) string {
	if ev.TurnID != "" {
		return "user:" + ev.TurnID
	}
	return fmt.Sprintf("user:#%d", ev.Sequence)
}

func reasoningBlockID(messageID string) string { return messageID + "#reasoning" }
func toolBlockID(toolCallID string) string     { return "tool:" + toolCallID }
func eventBlockID(ev event.Event) string       { return fmt.Sprintf("event:#%d", ev.Sequence) }

// Apply folds one event into the model. It is a pure function of the model and
// the event (no clock, no I/O): applying a session's events in sequence order
// gives the same model whether they arrive at once (a replay) or one by one (a
// live turn). Events at or below LastSequence are ignored, so a replay that
// overlaps a live feed is harmless. Unknown event types are ignored.
func (m *Model) Apply(ev event.Event) {
	if ev.Sequence != 0 && ev.Sequence <= m.LastSequence {
		return
	}
	if ev.Sequence != 0 {
		m.LastSequence = ev.Sequence
	}
	if m.Status.Session == "" {
		m.Status.Session = ev.SessionID
	}
	p, err := ev.Payload()
	if err != nil {
		if !errors.Is(err, event.ErrUnknownType) { // a newer pincer's event type: ignored
			m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindError, Done: true,
				Title: "an event could not be read", Text: err.Error()})
		}
		return
	}
	switch d := p.(type) {
	case event.SessionCreatedData:
		m.Status.Cwd, m.Status.Model, m.Status.BranchOf = d.Cwd, d.Model, d.BranchOf
	case event.SessionRewoundData:
		m.sessionRewound(ev, d)
	case event.TurnStartedData:
		m.turnStarted(ev, d)
	case event.MessageDeltaData:
		m.messageDelta(d)
	case event.MessageCompletedData:
		m.messageCompleted(d)
		m.reserveCalls(ev.TurnID, d.ToolCalls)
	case event.ToolReceivingData:
		m.toolReceiving(ev, d)
	case event.ToolStartedData:
		m.replaceReceiving(ev.TurnID, d.ToolCallID, d.Name)
		m.toolStarted(ev, d)
		m.todoStarted(ev.TurnID, d)
	case event.ToolCompletedData:
		m.replaceReceiving(ev.TurnID, d.ToolCallID, d.Name)
		m.toolCompleted(ev, d)
		m.todoCompleted(d)
	case event.PermissionRequestedData:
		m.replaceReceiving(ev.TurnID, d.ToolCallID, d.Name)
		m.permissionRequested(ev, d)
	case event.PermissionResolvedData:
		m.permissionResolved(d)
	case event.CandidateProposedData:
		m.candidateProposed(ev, d)
	case event.CandidateDecidedData:
		m.candidateDecided(d)
	case event.UsageData:
		m.usage(d)
	case event.CompactionCompletedData:
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true,
			Text: fmt.Sprintf("context compacted: %d → %d tokens", d.BeforeTokens, d.AfterTokens)})
	case event.TurnCompletedData:
		m.turnEnded(ev.TurnID, TurnCompleted, d.StopReason)
	case event.TurnFailedData:
		m.turnEnded(ev.TurnID, TurnFailed, d.Reason)
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindError, Done: true,
			Title: "turn failed (" + d.Reason + ")", Text: d.Error})
	case event.TurnCancelledData:
		m.turnEnded(ev.TurnID, TurnCancelled, d.Reason)
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true,
			Text: "turn cancelled: " + d.Reason})
	case event.ModeChangedData:
		m.Status.Mode = d.Mode
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true,
			Text: "permission mode: " + d.Mode})
	case event.ModelChangedData:
		m.Status.Model, m.Status.ContextWindow, m.Status.WindowReported = d.Model, d.ContextWindow, true
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: transcript.KindNotice, Done: true,
			Text: "model: " + d.Model})
	case event.SubagentStartedData:
		m.subagentStarted(ev, d)
	case event.SubagentCompletedData:
		m.subagentCompleted(ev, d)
	case event.CheckpointRecordedData:
		m.checkpointRecorded(d)
	case event.ShellStartedData:
		m.shellStarted(d)
	case event.ShellExitedData:
		m.shellExited(ev, d)
	case event.NoticeData:
		m.Notices = append(m.Notices, Notice{Level: d.Level, Source: d.Source, Message: d.Message, Sequence: ev.Sequence})
		kind := transcript.KindNotice
		if d.Level == "error" {
			kind = transcript.KindError
		}
		m.upsertBlock(transcript.Block{ID: eventBlockID(ev), Kind: kind, Done: true,
			Text: fmt.Sprintf("%s %s: %s", d.Source, d.Level, d.Message)})
	}
}

func (m *Model) turnStarted(ev event.Event, d event.TurnStartedData) {
	m.Status.Turn, m.Status.TurnDetail = TurnRunning, ""
	m.Status.TurnID, m.Status.TurnStarted = ev.TurnID, ev.Timestamp
	m.Status.Turns++
	// One turn per session at a time: requests of earlier turns can no longer
	// be answered (their process ended without resolving them).
	m.dropApprovals(func(a PendingApproval) bool { return a.SessionID == "" && a.TurnID != ev.TurnID },
		"a later turn started before it was answered")
	m.upsertBlock(transcript.Block{ID: userBlockID(ev), Kind: transcript.KindUser, Text: d.Input, Done: true})
}

func (m *Model) turnEnded(turnID, state, detail string) {
	m.Status.Turn, m.Status.TurnDetail = state, detail
	m.endReceiving(turnID)
	m.dropApprovals(func(a PendingApproval) bool { return a.TurnID == turnID },
		"its turn ended ("+state+") before it was answered")
}

func (m *Model) messageDelta(d event.MessageDeltaData) {
	id, kind, title := d.MessageID, transcript.KindAssistant, ""
	if d.Kind == "reasoning" {
		id, kind, title = reasoningBlockID(d.MessageID), transcript.KindReasoning, "reasoning"
	}
	if !m.updateBlock(id, func(b *transcript.Block) { b.Text += d.Delta }) {
		m.upsertBlock(transcript.Block{ID: id, Kind: kind, Title: title, Text: d.Delta,
			Collapsed: kind == transcript.KindReasoning})
	}
}

func (m *Model) messageCompleted(d event.MessageCompletedData) {
	if d.Role != "" && d.Role != "assistant" {
		return
	}
	title := ""
	if d.Interrupted {
		title = "interrupted"
	}
	if d.Reasoning != "" {
		id := reasoningBlockID(d.MessageID)
		if !m.updateBlock(id, func(b *transcript.Block) { b.Text, b.Done = d.Reasoning, true }) {
			m.upsertBlock(transcript.Block{ID: id, Kind: transcript.KindReasoning, Title: "reasoning",
				Text: d.Reasoning, Collapsed: true, Done: true})
		}
	}
	if _, streamed := m.blockIndex[d.MessageID]; d.Text != "" || streamed {
		if !m.updateBlock(d.MessageID, func(b *transcript.Block) { b.Text, b.Title, b.Done = d.Text, title, true }) {
			m.upsertBlock(transcript.Block{ID: d.MessageID, Kind: transcript.KindAssistant, Title: title,
				Text: d.Text, Done: true})
		}
	}
}

func (m *Model) toolStarted(ev event.Event, d event.ToolStartedData) {
	e := m.tool(d.ToolCallID)
	e.Name, e.Summary, e.Input, e.TurnID = d.Name, d.Summary, d.Input, ev.TurnID
	e.Status, e.RequestID, e.Started = ToolRunning, "", ev.Timestamp
	m.upsertBlock(toolBlock(*e))
}

func (m *Model) toolCompleted(ev event.Event, d event.ToolCompletedData) {
	e := m.tool(d.ToolCallID)
	if e.Name == "" {
		e.Name = d.Name
	}
	if (e.Summary == "" || e.Summary == e.Name) && d.Summary != "" {
		// a call refused before it started (plan mode, a file not read yet)
		// has no tool.started: only the name tool.receiving gave it (new
		// user r24 #9: "✗ Edit" with no file)
		e.Summary = d.Summary
	}
	if e.Summary == "" {
		e.Summary = d.Name
	}
	if e.TurnID == "" {
		e.TurnID = ev.TurnID
	}
	switch {
	case !d.IsError:
		e.Status = ToolDone
	case d.DeniedBy != "" && e.Status != ToolUnanswered:
		e.Status, e.DeniedBy = ToolDenied, d.DeniedBy
	case e.Status != ToolDenied && e.Status != ToolUnanswered:
		e.Status = ToolFailed
	}
	e.RequestID = ""
	e.Duration = time.Duration(d.DurationMs) * time.Millisecond
	e.Output, e.Diff, e.OutputLines = d.Output, d.Diff, d.OutputLines
	m.upsertBlock(toolBlock(*e))
}

func (m *Model) permissionRequested(ev event.Event, d event.PermissionRequestedData) {
	if _, dup := m.Approval(d.RequestID); !dup && m.record(d.RequestID) == nil {
		a := PendingApproval{RequestID: d.RequestID, ToolCallID: d.ToolCallID,
			TurnID: ev.TurnID, Name: d.Name, Summary: d.Summary, Reason: d.Reason, Sequence: ev.Sequence,
			Diff: d.Diff, PreviewError: d.PreviewError, Command: d.Command}
		m.Approvals = append(m.Approvals, a)
		m.addRecord(a)
	}
	e := m.tool(d.ToolCallID)
	e.Name, e.Summary, e.TurnID = d.Name, d.Summary, ev.TurnID
	e.Status, e.RequestID = ToolApproval, d.RequestID
	m.upsertBlock(toolBlock(*e))
}

func (m *Model) permissionResolved(d event.PermissionResolvedData) {
	m.removeApproval(d.RequestID)
	m.resolveRecord(d)
	id := d.ToolCallID
	if id == "" { // older logs: find the call by its request
		for _, e := range m.Timeline {
			if e.RequestID == d.RequestID {
				id = e.ToolCallID
			}
		}
	}
	i, ok := m.toolIndex[id]
	if !ok {
		return
	}
	e := &m.Timeline[i]
	e.RequestID = ""
	if e.Status == ToolApproval {
		e.Status = ToolPending
		switch {
		case d.Decision != "allow" && d.By == event.ByUnanswered:
			e.Status = ToolUnanswered
		case d.Decision != "allow":
			e.Status = ToolDenied
		}
	}
	m.upsertBlock(toolBlock(*e))
}

func (m *Model) usage(d event.UsageData) {
	s := &m.Status
	s.ModelCalls++
	s.InputTokens += d.InputTokens
	s.OutputTokens += d.OutputTokens
	s.CacheReadTokens += d.CacheReadTokens
	s.CacheWriteTokens += d.CacheWriteTokens
	if d.CostUSD == nil {
		s.CostUnknown = true
	} else {
		s.CostUSD += *d.CostUSD
	}
	s.LastContextTokens = d.InputTokens + d.OutputTokens
	s.ContextWindow, s.WindowReported = d.ContextWindow, true
}

// toolBlock is the transcript entry of a tool call: one line (summary,
// duration) that expands to its output.
func toolBlock(e ToolEntry) transcript.Block {
	title := e.Summary
	if title == "" {
		title = e.Name
	}
	done := e.Status == ToolDone || e.Status == ToolFailed || e.Status == ToolInterrupted ||
		((e.Status == ToolDenied || e.Status == ToolUnanswered) && e.Output != "")
	if done && e.Duration > 0 {
		title += "  " + formatDuration(e.Duration)
	}
	return transcript.Block{ID: toolBlockID(e.ToolCallID), Kind: transcript.KindTool, Title: title,
		Status: string(e.Status), StatusNote: e.deniedNote(), Text: e.Output, OutputLines: e.OutputLines, Collapsed: true, Done: done}
}

// formatDuration shows a duration the way the timeline does: 850ms, 1.2s, 2m03s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
