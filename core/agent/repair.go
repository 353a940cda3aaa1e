package agent

import "pincer/core/message"

// InterruptedResult is the tool result the provider view gets for a tool call that
// has none in the stored transcript (a crash or cancellation between the call and its
// result), as mx-claw's repairToolCallTranscript.
const InterruptedResult = "Tool execution was interrupted before a result was recorded. " +
	"This call must be retried if still needed."

// RepairView returns the provider view of a stored transcript in which every tool
// call has exactly one result, placed right after its assistant message in call
// order:
//   - tool results that answer no call of the preceding assistant message (orphans)
//     are dropped;
//   - a second result for the same call is dropped;
//   - calls with no result get InterruptedResult (IsError);
//   - assistant messages with neither text nor tool calls (an interrupted stream that
//     produced nothing) are dropped, since providers reject empty assistant turns.
//
// msgs is not modified: the stored transcript is the whole truth (invariant 3).
func RepairView(msgs []message.Message) []message.Message {
	out := make([]message.Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case message.RoleTool:
			continue // a result not inside a tool segment is an orphan
		case message.RoleAssistant:
			calls := m.ToolCalls()
			if len(calls) == 0 {
				if m.Text() != "" {
					out = append(out, m)
				}
				continue
			}
			out = append(out, m)
			// Gather the tool segment that follows.
			results := map[string]message.Message{}
			j := i + 1
			for ; j < len(msgs) && msgs[j].Role == message.RoleTool; j++ {
				r, ok := msgs[j].ToolResult()
				if !ok {
					continue
				}
				if _, seen := results[r.ToolCallID]; seen {
					continue
				}
				results[r.ToolCallID] = msgs[j]
			}
			for _, c := range calls {
				if r, ok := results[c.ToolCallID]; ok {
					out = append(out, r)
					continue
				}
				fill := message.NewToolResult(c.ToolCallID, c.ToolName, InterruptedResult, true)
				fill.SessionID = m.SessionID
				fill.TurnID = m.TurnID
				out = append(out, fill)
			}
			i = j - 1
		default:
			out = append(out, m)
		}
	}
	return out
}
