package tui

import (
	"slices"

	"pincer/core/event"
)

// receivingMark follows a tool call's name while its arguments stream in.
const receivingMark = " … receiving arguments"

// receivingPrefix keys the timeline entry of a call announced without an id
// (a provider that sends the id later): it is replaced by the first call of
// its turn and name that arrives with an id.
const receivingPrefix = "receiving:"

// toolReceiving shows a streamed call at once, with its name, until its
// tool.started (or permission.requested, or tool.completed) replaces it.
func (m *Model) toolReceiving(ev event.Event, d event.ToolReceivingData) {
	id := d.ToolCallID
	if id == "" {
		id = receivingPrefix + ev.TurnID + ":" + d.Name
	}
	if e, ok := m.Tool(id); ok && e.Status != ToolReceiving {
		return // already further along (a replay that repeats it)
	}
	e := m.tool(id)
	e.Name, e.Summary, e.TurnID, e.Status = d.Name, d.Name+receivingMark, ev.TurnID, ToolReceiving
	if d.ToolCallID != "" { // an entry without its id stays out of the transcript: it is replaced
		m.upsertBlock(toolBlock(*e))
	}
}

// replaceReceiving drops the id-less placeholder of a call of this turn and
// name once the call itself arrives with its id, and clears the mark of a
// call that arrived announced. Call it before the event updates the entry.
func (m *Model) replaceReceiving(turnID, toolCallID, name string) {
	if e, ok := m.Tool(toolCallID); ok && e.Status == ToolReceiving {
		m.Timeline[m.toolIndex[toolCallID]].Summary = name
	}
	key := receivingPrefix + turnID + ":" + name
	i, ok := m.toolIndex[key]
	if !ok || key == toolCallID {
		return
	}
	m.Timeline = slices.Delete(m.Timeline, i, i+1)
	delete(m.toolIndex, key)
	for j := i; j < len(m.Timeline); j++ {
		m.toolIndex[m.Timeline[j].ToolCallID] = j
	}
}

// endReceiving marks the calls of a turn still receiving when it ended as
// interrupted: the model never finished them, and they never ran.
func (m *Model) endReceiving(turnID string) {
	for i := range m.Timeline {
		e := &m.Timeline[i]
		if e.TurnID == turnID && e.Status == ToolReceiving {
			e.Status, e.Summary = ToolInterrupted, e.Name
			if _, shown := m.blockIndex[toolBlockID(e.ToolCallID)]; shown {
				m.upsertBlock(toolBlock(*e))
			}
		}
	}
}
