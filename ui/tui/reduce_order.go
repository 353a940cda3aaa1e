package tui

import "pincer/core/event"

// reserveCalls gives the tool calls a reply made (its message.completed names
// them, in the model's order) their timeline entries, in that order, before
// any of them starts: parallel calls then stay listed as the model made them
// however their runs interleave (Found 13). A call already shown while its
// arguments streamed keeps its place and is now complete (pending); one shown
// without its id is replaced by its entry.
func (m *Model) reserveCalls(turnID string, calls []event.ToolCallRef) {
	for _, c := range calls {
		if c.ToolCallID == "" {
			continue
		}
		m.replaceReceiving(turnID, c.ToolCallID, c.Name)
		e := m.tool(c.ToolCallID)
		if e.Name == "" {
			e.Name = c.Name
		}
		if e.Summary == "" {
			e.Summary = c.Name
		}
		if e.TurnID == "" {
			e.TurnID = turnID
		}
		if e.Status == ToolReceiving {
			e.Status = ToolPending
			if _, shown := m.blockIndex[toolBlockID(e.ToolCallID)]; shown {
				m.upsertBlock(toolBlock(*e))
			}
		}
	}
}
