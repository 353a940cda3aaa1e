package checkpoint

import (
	"pincer/core/event"
	"pincer/persist"
)

// RecordedData is the checkpoint.recorded payload of stored checkpoint c,
// the change of tool call toolCallID (a rewind's request's call ID, or ""
// for `pincer rewind`): its Seq, each file's sizes in bytes before and after
// (-1: absent), the paths noted. Every checkpoint that changed the workspace
// is one such event, so a view folding the log (the time travel's cursor,
// app.DiffSpan.Through) counts it: a tool call's and a rewind's restore.
func RecordedData(c persist.Checkpoint, toolCallID string) event.CheckpointRecordedData {
	data := event.CheckpointRecordedData{ToolCallID: toolCallID, Seq: c.Seq, Noted: c.Noted}
	for _, f := range c.Files {
		fd := event.CheckpointFileData{Path: f.Path, Before: f.Before.Size, After: f.After.Size}
		if f.Before.Absent {
			fd.Before = -1
		}
		if f.After.Absent {
			fd.After = -1
		}
		data.Files = append(data.Files, fd)
	}
	return data
}
