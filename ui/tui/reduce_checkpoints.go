package tui

import "pincer/core/event"

// checkpointRecorded folds checkpoint.recorded: the session's last
// checkpoint, and the call's (a call the timeline does not hold, a
// subagent's say, adds no entry).
func (m *Model) checkpointRecorded(d event.CheckpointRecordedData) {
	m.Checkpoint = max(m.Checkpoint, d.Seq)
	if i, ok := m.toolIndex[d.ToolCallID]; ok {
		m.Timeline[i].Checkpoint = d.Seq
	}
}
